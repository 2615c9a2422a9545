/**
 * What a browser's developer console prints when a request fails: a network
 * error ("POST http://localhost:8081/api/x net::ERR_CONNECTION_REFUSED"), an
 * HTTP error status of a request ("GET https://host/api 500 (Internal Server
 * Error)") and a resource that failed to load. People paste these into their
 * messages after describing what they did; a front end's failures show only
 * there. Each expression is anchored or bounded; a line is read through a capped prefix.
 */
import type { ReadingState } from './reading-state.js';

const NETWORK_ERROR = /^(?:(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S{1,300}) )?(?:\S{1,300} )?(net::ERR_[A-Z_]{3,40})\b/;
const REQUEST_STATUS = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (https?:\/\/\S{1,300}) ([45]\d\d) \(([^()]{1,60})\)/;
const FAILED_RESOURCE = /^Failed to load resource: (.{1,200})$/;

/** A request's address without its scheme and host's noise kept: the path says which call failed. */
const shown = (url: string): string => url.replace(/^https?:\/\//, '');

/**
 * Reads one line as a browser console's report of a failed request.
 *
 * @param line - the line, trimmed and without leading marks.
 * @param state - the reading.
 * @returns whether the line was taken.
 */
export function readBrowserConsole(line: string, state: ReadingState): boolean {
  // Cheap gates first: the shapes all carry one of these.
  const network = line.includes('net::ERR_') ? NETWORK_ERROR.exec(line) : null;
  if (network) {
    const [, method, url, code] = network;
    state.push('problem', method && url ? `${method} ${shown(url)} failed: ${code}` : `request failed: ${code}`);
    state.failed = true;
    return true;
  }
  const status = line.includes(' (') ? REQUEST_STATUS.exec(line) : null;
  if (status) {
    state.push('problem', `${status[1]} ${shown(status[2] ?? '')} answered ${status[3]} (${status[4]})`);
    state.failed = true;
    return true;
  }
  const resource = line.startsWith('Failed to load resource') ? FAILED_RESOURCE.exec(line) : null;
  if (resource) {
    state.push('problem', `failed to load resource: ${resource[1]}`);
    state.failed = true;
    return true;
  }
  return false;
}

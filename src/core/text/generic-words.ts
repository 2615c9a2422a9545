/**
 * Words that never make a lasting topic of a coding session: English function
 * words, the everyday vocabulary of programming, the plugin's own words,
 * generic acronyms, file stems every project has, and the shell's everyday
 * commands. Concept candidates are checked against these sets after
 * normalization (lowercase, hyphens).
 */

function set(words: string): ReadonlySet<string> {
  return new Set(words.split(/\s+/).filter(Boolean));
}

/**
 * English words that separate phrases: articles, pronouns, prepositions,
 * conjunctions, auxiliaries, and the commonest verbs, adverbs and adjectives.
 */
export const ENGLISH_STOP_WORDS = set(`
a about above across after again against all beside besides almost also although always am among an and another any anyone
anything anyway anywhere are around as at away back be became because become been before being below between
both but by can cannot could did do does doing done down during each either else enough even ever every
everything few for from further get gets getting got had has have having he her here hers him his how however
i if in inside instead into is it its itself just least less let lets like likely made make makes making many
may maybe me might mine more most much must my myself near need needed needs never new next no none nor not
nothing now of off often ok okay on once one only onto or other others otherwise our ours out over own per
perhaps please quite rather really right same see seem seems seen shall she should since so some someone
something sometimes somewhere still such sure than that the their theirs them then there these they thing
things this those though through thus to too toward under unless until up upon us use used uses using very
via want wants was we well were what whatever when where whether which while who whom whose why will with
within without would yes yet you your yours yourself
able actually add added adding already always another anyway apply applied ask asked based better big call
called calls case cases change changed changes changing check checked checking clear come comes correct
create created creates creating current currently different does doesn done easy else example exist exists
existing fine first following found full give given go goes going good great handle handled handles happen
happens help here keep keeps kept know last later look looking looks lot main mean means missing move moved
much necessary needs note now old once open possible previous probably proper properly put read ready real
remove removed removing replace replaced required return returns run running runs say says set sets show
shows simple small specific start started still take takes tell thanks think tried try trying turn two
update updated updates updating wait way work worked working works wrong yeah
dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent hasnt havent hadnt thats whats
theres youre theyre ive youve weve im
`);

/**
 * Function words of the other languages with cue sets (Spanish, Portuguese, French, German) and
 * Italian: a word of theirs written in capitals for emphasis (`SIN romper`, `NICHT ändern`) is read
 * as an acronym, and never names a topic.
 */
export const FOREIGN_STOP_WORDS = set(`
de del la las el los un una unos unas y o u e en con sin por para que se su sus al lo le les es son
mas pero si no ni solo sobre entre hasta desde como cuando donde muy ya tambien este esta estos estas
ese esa eso todo toda todos todas otro otra
da das do dos na nas no nos um uma com sem mas ou ao aos pelo pela sobre entre ate como quando onde
muito ja tambem isso isto
du des le la les un une et ou en dans avec sans pour par sur que qui ne pas plus est sont ce cette ces
aux au mais donc car tout tous
der die das den dem des ein eine einen einem einer und oder mit ohne von zu zum zur im am auf aus bei
nach vor ist sind nicht kein keine nur auch aber wenn wie was wo noch schon sehr
il lo gli una uno per con senza che non
`);

/** Everyday words of programming and of the plugin itself; never a topic on their own. */
export const GENERIC_TERMS = set(`
api apis app apps application applications approach argument arguments array arrays async attribute
attributes await backend block body bool boolean branch bug bugs build builds builder cache call callback
caller case char class classes cli client code codebase column columns command commands comment comments
commit commits compile compiler component components concept concepts condition config configuration
console const constant constants constructor content context control cwd data database date debug default
definition delete dependency dependencies description detail details dev directory doc docs document
documentation element elements entry env environment error errors event events exception exceptions export
exports expression feature features field fields file files filter fix fixed fixes fixing flag flags folder
folders format frontend function functions handler helper helpers hook hooks html http https id ids image
implement implementation implemented import imports index info input inputs instance interface issue issues
item items json key keys language layer layout level lib library libraries line lines link links list lists
load loader local log logic logs loop main map message messages method methods mode model models module
modules name names null number numbers object objects option options output outputs package packages page
pages parameter parameters params parse parser part parts path paths pattern phase phases plan plugin pros cons point process
program project projects prompt property props query question read reference repo repository request
requests response result results return root route routes rule rules run runtime schema scope script
scripts section sections server service services session sessions setting settings setup size source src
start state status step steps store string strings struct structure style styles summary support system
table tag tags task tasks template templates term terms test tests text thing time todo token tool tools
true false type types undefined unit url user users util utils validation value values var variable
variables version versions view views way word words work workflow wrapper write
agent agents compaction maenifold opencode wikilink wikilinks knowledge graph entity example item
github gitlab bitbucket
`);

/**
 * Words of the conversation's own mechanics: who speaks, what the host does with the
 * conversation, the host's tools and the tiers of the models that answer. They name how a
 * session runs, never what it is about.
 */
export const MECHANICS_WORDS = set(`
assistant assistants user users human reply replies replied respond responded answer answered decide decided
decides decision decisions fake fakes session sessions message messages summary summaries summarize
compaction compacted conversation conversations chat chats transcript
bash edit edits read write grep glob task tasks todowrite todoread todo todos webfetch websearch codesearch
multiedit apply-patch patch list skill skills invalid question questions batch
claude sonnet opus haiku chatgpt codex copilot-chat
`);

/**
 * A model's id: a family's name with a version or a tier after it (`gpt-4o`, `claude-sonnet-4-5`,
 * `gemini-2.5-pro`, `glm-4.6`, `qwen3-coder`). The family alone (`glm`) may be what the work uses,
 * and so may a library named after it (`llama-cpp`).
 */
export const MODEL_ID = /^(?:gpt|chatgpt|claude|gemini|glm|qwen|llama|mistral|mixtral|deepseek|kimi|grok|o[134]|phi|codestral|devstral|minimax)(?:-?\d|-(?:sonnet|opus|haiku|pro|flash|mini|nano|turbo|coder|instruct|chat|air|latest|preview|lite))/;

/** Acronyms every session uses; a session's own acronyms (`jwt`, `mfa`) are not here. */
export const GENERIC_ACRONYMS = set(`
ai am api apis ascii cpu crud csv cwd db dom eof env eol etc faq gb gpu gui html http https id ide ids io
json kb llm mb md ms na nb ok os pdf pid pm pr ps qa ram readme sdk sql ssh tl todo ts tsx js jsx ui uri
url usb utc utf ux vs xml yaml yml get post put patch delete head true false null none nan info warn warning
error debug fatal note tip important fixme xxx hack wip tbd lgtm
`);

/** File stems most projects have: a file so named says nothing about what the session was about. */
export const GENERIC_FILE_STEMS = set(`
index main app page layout route routes mod lib util utils helper helpers common core base types type
constants config configuration settings setup init package package-lock readme license changelog
contributing makefile dockerfile test tests spec specs style styles global globals module modules
components component service services model models view views controller controllers schema schemas
server client api handler handlers main-window default defaults script scripts build dist tmp temp
requirements pyproject cargo go tsconfig vite webpack babel eslint jest vitest prettier gitignore env
example sample demo data output input log logs todo notes plan cli
`);

/** Commands run in nearly every session; the programs a session is about (`tmux`, `docker`) are not here. */
export const GENERIC_COMMANDS = set(`
cd ls ll cat echo printf grep egrep rg find fd sed awk head tail less more rm rmdir mv cp mkdir touch chmod
chown ln pwd which whereis type git npm npx pnpm pnpx yarn bun bunx node deno python python3 py pip pip3
pipx uv uvx poetry sh bash zsh fish sudo env export source set unset true false test sleep wc sort uniq
xargs tee diff cmp make tar zip unzip gzip gunzip curl wget ssh scp rsync ps kill pkill killall top htop
date time timeout clear history exit read eval exec open xdg-open code vim vi nano nohup watch stat file
du df free uname whoami id go cargo rustc java javac dotnet ruby gem bundle php composer cmd powershell
pwsh start explorer dir copy del move type ren mklink where tree cls
`);

/** Snake-case tool names whose first word is a verb or a generic noun, not an MCP server's name. */
export const GENERIC_TOOL_PREFIXES = set(`
apply read write edit multi web file files list run search get set create update delete todo fetch find
glob grep patch view open exec bash shell task ask question code lsp mcp tool
`);

/** English words that show a text is English enough for the phrase reader (distinct from neighbour languages' words). */
export const ENGLISH_MARKERS = set(`
the and of to is are was were it that this with for you we be have has not but can will should would what
which there they from by an or if so do does it's i'm don't can't we'll let's
`);

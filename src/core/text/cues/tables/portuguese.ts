/**
 * Portuguese cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';
import { inflectIberian } from '../cue-inflections.js';

/** Portuguese cues, by kind. */
export const PORTUGUESE: CueTable = cueTable({
  goalHeading: ['objetivo', 'objetivos', 'tarefa', 'requisitos', 'contexto'],
  purpose: ['para que', 'para não', 'para evitar', 'porque', 'pois', 'de modo que'],
  instruction: {
    change: ['substituir', 'alterar', 'mover', 'renomear'],
    weakChange: ['adicionar', 'remover', 'corrigir', 'criar', 'instalar', 'atualizar', 'usar'],
  },
  change: [
    'alterei', 'alterado', 'mudei', 'mudado', 'mudar para', 'substituí', 'substituído', 'movi', 'movido', 'renomeei',
    'renomeado', 'migrei', 'migrado', 'em vez de', 'ao invés de', 'decidi', 'decidimos', 'escolhi', 'optei',
    'reescrevi', 'agora usa', 'migrar',
  ],
  weakChange: [
    'adicionei', 'adicionado', 'removi', 'removido', 'excluí', 'criei', 'criado', 'corrigi', 'corrigido',
    'implementei', 'implementado', 'instalei', 'atualizei', 'atualizado', 'usa', 'não mais', 'excluir',
  ],
  summaryHeading: ['resumo', 'alterações', 'mudanças', 'solução', 'correções', 'concluído', 'feito', 'plano'],
  decisionHeading: ['decisões', 'decisão', 'decisões principais'],
  problemHeading: ['causa', 'causa raiz', 'problema', 'problemas', 'erros', 'diagnóstico'],
  nextHeading: ['próximos passos', 'próximo passo', 'pendente', 'pendentes', 'a fazer', 'falta'],
  planHeading: ['plano', 'proposta', 'passos'],
  problem: ['erro*', 'trava*', 'congela*', 'não funciona', 'falha*', 'quebrado', 'quebrou', 'não consigo', 'exceção', 'somente leitura', 'inconsisten*'],
  next: ['próximo', 'depois', 'quer que', 'deseja que', 'vou', 'falta', 'teste'],
  minor: ['menor', 'não usado', 'comentário', 'duplicado', 'duplicada', 'redundante'],
  hedge: ['poderia', 'talvez', 'alternativa*', 'opção'],
  verified: ['sucesso', 'com sucesso', 'sem erros', 'funciona', 'funcionando', 'verificado', 'passando', 'resultado', 'resultados', 'status'],
}, inflectIberian);

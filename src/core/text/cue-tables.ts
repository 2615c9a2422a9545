/**
 * The cue words themselves, by language: what says "a change was made", "this
 * is a summary", "this is a problem" and "this comes next" in the prose of a
 * coding session. Literal phrases matched at a word start (CJK cues anywhere);
 * a trailing `*` makes one a prefix (`congel*` finds congela, congelado).
 */

/** The kinds of cue. */
export type CueKind =
  | 'change'
  | 'weakChange'
  | 'summaryHeading'
  | 'decisionHeading'
  | 'problemHeading'
  | 'nextHeading'
  | 'planHeading'
  | 'problem'
  | 'next'
  | 'hedge'
  | 'minor'
  | 'instruction'
  | 'purpose'
  | 'goalHeading';

export type CueTable = Record<CueKind, readonly string[]>;

export const ENGLISH: CueTable = {
  goalHeading: ['objective', 'objectives', 'goal', 'goals', 'task', 'the task', 'primary request', 'user request', 'request', 'background', 'requirements'],
  purpose: [
    'so that', 'so it', 'so the', 'so we', 'so they', 'so one', 'so no', 'in order to', 'to avoid', 'to prevent', 'to keep',
    'to ensure', 'to make sure', 'to stop', 'to allow', 'to support', 'because', 'since', 'which means', 'otherwise',
    'so nothing', 'not to',
  ],
  instruction: [
    'add', 'remove', 'delete', 'fix', 'replace', 'move', 'use', 'create', 'update', 'change', 'switch', 'rename',
    'extract', 'wrap', 'make', 'implement', 'introduce', 'keep', 'set', 'convert', 'refactor', 'inline', 'split',
    'merge', 'install', 'pin', 'downgrade', 'upgrade', 'rewrite', 'handle', 'enforce', 'drop', 'connect', 'wire',
    'ensure', 'unify', 'migrate', 'clean', 'reinstall', 'consider', 'document', 'expose', 'mark', 'rework', 'decide',
  ],
  change: [
    'changed', 'change from', 'switched', 'switch to', 'replaced', 'replace', 'replaces', 'moved', 'move the', 'renamed',
    'migrated', 'downgraded', 'downgrade', 'upgraded', 'pinned', 'pin', 'converted', 'rewrote', 'rewritten', 'rewrite',
    'refactored', 'extracted', 'inlined', 'inline the', 'wrapped', 'wraps', 'now uses', 'now calls', 'now reads',
    'now publishes', 'now returns', 'now raises', 'now goes through', 'instead of', 'rather than', 'in favor of',
    'in favour of', 'decided', 'went with', 'go with', 'opted', 'chose', 'settled on', 'enforce', 'enforced', 'enforces',
    '→',
  ],
  weakChange: [
    'added', 'adds', 'removed', 'removes', 'deleted', 'created', 'introduced', 'fixed', 'implemented', 'updated', 'made',
    'kept', 'split', 'merged', 'installed', 'retrained', 'stashed', 'wired', 'connected', 'hardened',
    'guarded', 'redirects', 'resolved', 'reworked', 'relaxed', 'restricted', 'delegates', 'persists', 'uses', 'use',
    'set to', 'defaults to', 'stores', 'loads', 'builds', 'checks', 'publishes', 'reloads', 'activates',
    'no longer', 'add', 'remove', 'delete', 'update', 'install', 'reinstall', 'create', 'fix', 'wrap', 'clean',
  ],
  summaryHeading: [
    'summary', 'changes', 'change', 'what changed', 'what was changed', 'what i did', 'what i changed', 'fixes applied',
    'fix applied', 'fixes', 'the fix', 'fix', 'solution', 'resolution', 'done', 'completed', 'accomplished',
    'implemented', 'implementation', 'result', 'results', 'files modified', 'modified', 'key changes', 'proposed fix',
    'plan', 'work state', 'all set', 'updated',
  ],
  decisionHeading: [
    'key decisions', 'decisions', 'decision', 'design decisions', 'agreed', 'decided', 'approach', 'better approach',
    'strategy', 'chosen',
  ],
  problemHeading: [
    'root cause', 'root causes', 'cause', 'causes', 'issue', 'issues', 'issues found', 'problem', 'problems', 'bug', 'bugs', 'what went wrong',
    'diagnosis', 'pending issues', 'known issues', 'blocked', 'blockers', 'errors', 'failures',
  ],
  nextHeading: [
    'next steps', 'next step', 'next move', 'up next', "what's next", 'remaining', 'remaining work', 'todo', 'to do', 'to-do', 'pending',
    'open questions', 'follow-up', 'follow-ups', 'current work', 'in progress', 'active', "what's left", 'left to do',
    'still unresolved', 'still open', 'recommendations',
  ],
  planHeading: ['plan', 'proposed', 'proposal', 'proposed fix', 'proposed changes', 'steps', 'fix plan', 'implementation plan'],
  problem: [
    'error', 'errors', 'fails', 'failed', 'failing', 'failure', 'crash*', 'freez*', 'frozen', 'hangs', 'hanging', 'stuck',
    'broken', "doesn't work", 'does not work', 'not working', "isn't working", "can't", 'cannot', 'unable to',
    'exception', 'timed out', 'timeout', 'wrong', 'bug', 'regress*', 'not found', 'undefined', 'nan', 'blank',
    'invalid', 'refus*', 'rejected', 'denied', 'missing', 'unreachable', 'invisible', 'stale', 'looks gray',
    'broke', 'breaks', 'mismatch*', 'inconsisten*', 'unresolved', 'read-only', 'read only',
  ],
  next: [
    'next step*', 'next i', 'next we', "i'll", 'i will', 'let me know', 'want me to', 'shall i', 'should i', 'would you like', 'do you want',
    'remaining', 'still need', 'still needs', 'todo', 'follow up', 'try it', 'test it', 'please check', 'once you',
    'ready to', 'on approval', 'if you approve', 'still open', 'still unresolved', 'pending', 'run', 'try', 'verify',
  ],
  minor: [
    'low', 'minor', 'nit', 'nitpick', 'optional', 'cosmetic', 'unused', 'typo', 'typos', 'whitespace', 'formatting',
    'lint', 'dead code', 'import', 'imports', 'comment', 'comments', 'log', 'logs', 'console.log', 'duplicate',
    'duplicated', 'redundant', 'consistency', 'consistent', 'encapsulation', 'boilerplate',
    // Installing what was missing repairs an environment, and debug output comes and goes: the project decided nothing.
    'installed missing', 'install missing', 'installed the missing', 'install the missing', 'debug logging', 'debug output',
  ],
  hedge: [
    'would', 'could', 'might', 'if you want', 'alternatively', 'option', 'maybe', 'perhaps', 'consider', 'should we',
    'do you want', 'want me to', 'shall i', 'proposal', 'suggest*',
  ],
};

const SPANISH: CueTable = {
  goalHeading: ['objetivo', 'objetivos', 'tarea', 'requisitos', 'contexto'],
  purpose: ['para que', 'para no', 'para evitar', 'porque', 'ya que', 'de modo que', 'sin que'],
  instruction: [
    'editar', 'cambiar', 'limpiar', 'crear', 'eliminar', 'agregar', 'añadir', 'actualizar', 'mover', 'reemplazar',
    'usar', 'instalar', 'reinstalar', 'corregir', 'arreglar', 'quitar', 'borrar', 'conectar', 'envolver',
    'implementar', 'migrar', 'renombrar', 'fijar', 'bajar', 'hacer', 'decidir',
  ],
  change: [
    'cambié', 'cambiado', 'cambiar', 'cambia', 'reemplacé', 'reemplazado', 'reemplazar', 'sustituí', 'sustituido',
    'moví', 'movido', 'migré', 'migrado', 'renombré', 'renombrado', 'downgrade', 'bajé', 'fijé', 'fijado',
    'en lugar de', 'en vez de', 'decidí', 'decidimos', 'elegí', 'optamos', 'opté', 'ahora usa', 'reescribí',
    'reescrito', 'reescribir', 'mover', 'migrar', 'renombrar', 'reescribo', 'reemplazo', 'muevo', 'renombro', 'migro',
    'cambio a',
  ],
  weakChange: [
    'agregué', 'agregado', 'añadí', 'añadido', 'eliminé', 'eliminado', 'borré', 'borrado', 'creé', 'creado',
    'corregí', 'corregido', 'implementé', 'implementado', 'arreglé', 'arreglado', 'instalé', 'quité', 'quitado',
    'configuré', 'conecté', 'conectado', 'actualicé', 'actualizado', 'usa', 'usar', 'ya no', 'actualizar',
    'eliminar', 'agregar', 'añadir', 'borrar', 'limpiar', 'instalar', 'reinstalar', 'crear', 'corregir', 'arreglar',
    'conectar', 'envolver', 'quitar', 'añado', 'agrego', 'elimino', 'quito', 'actualizo', 'corrijo', 'arreglo',
    'conecto', 'envuelvo', 'instalo', 'implemento', 'uso',
  ],
  summaryHeading: [
    'resumen', 'cambios', 'cambios realizados', 'solución', 'lo que hice', 'hecho', 'listo', 'completado',
    'implementado', 'correcciones', 'plan', 'resultado',
  ],
  decisionHeading: ['decisiones', 'decisiones clave', 'decisión', 'estrategia', 'enfoque', 'mejor estrategia*'],
  problemHeading: ['causa', 'causa raíz', 'causas', 'problema', 'problemas', 'errores', 'diagnóstico'],
  nextHeading: ['próximos pasos', 'siguientes pasos', 'siguiente paso', 'pendiente', 'pendientes', 'falta', 'por hacer'],
  planHeading: ['plan', 'propuesta', 'pasos', 'plan de fix'],
  problem: [
    'se congela', 'congel*', 'crashea', 'se crashea', 'se cuelga', 'cuelga', 'falla*', 'error*', 'no funciona',
    'no anda', 'no carga', 'no responde', 'roto', 'rota', 'bloque*', 'no puedo', 'no se puede', 'excepción', 'sigue',
    'solo lectura', 'inconsisten*',
  ],
  next: [
    'próximo', 'siguiente', 'continuamos', 'continuar con', 'querés que', 'quieres que', 'probá', 'prueba',
    'verificá', 'verifica', 'falta', 'pendiente', 'luego', 'voy a', 'necesitás', 'necesitas',
  ],
  minor: ['menor', 'opcional', 'sin usar', 'no usado', 'importación', 'comentario', 'duplicado', 'duplicada', 'redundante'],
  hedge: ['podría', 'podrías', 'si querés', 'si quieres', 'alternativa*', 'opción', 'quizás', 'tal vez'],
};

const GERMAN: CueTable = {
  goalHeading: ['ziel', 'ziele', 'aufgabe', 'anforderungen', 'hintergrund'],
  purpose: ['damit', 'weil', 'sodass', 'sonst'],
  instruction: ['ersetzen', 'entfernen', 'hinzufügen', 'ändern', 'aktualisieren', 'erstellen', 'löschen', 'verschieben', 'installieren'],
  change: [
    'geändert', 'ändern', 'ersetzt', 'ersetzen', 'umgestellt', 'umstellen', 'verschoben', 'verschieben', 'migriert',
    'umbenannt', 'statt', 'anstatt', 'anstelle', 'stattdessen', 'entschieden', 'gewählt', 'neu geschrieben',
    'nutzt jetzt', 'verwendet jetzt', 'herabgestuft',
  ],
  weakChange: [
    'hinzugefügt', 'entfernt', 'gelöscht', 'erstellt', 'behoben', 'korrigiert', 'implementiert', 'installiert',
    'eingebaut', 'angepasst', 'aktualisiert', 'verwendet', 'nutzt', 'nicht mehr', 'hinzufügen', 'entfernen',
    'löschen', 'erstellen', 'beheben', 'installieren', 'aktualisieren',
  ],
  summaryHeading: ['zusammenfassung', 'änderungen', 'lösung', 'umsetzung', 'erledigt', 'ergebnis', 'fertig', 'plan'],
  decisionHeading: ['entscheidungen', 'entscheidung', 'ansatz', 'strategie'],
  problemHeading: ['ursache', 'ursachen', 'problem', 'probleme', 'fehler', 'fehleranalyse', 'diagnose'],
  nextHeading: ['nächste schritte', 'als nächstes', 'offen', 'offene punkte', 'noch zu tun', 'ausstehend'],
  planHeading: ['plan', 'vorschlag', 'schritte'],
  problem: [
    'fehler*', 'stürzt ab', 'absturz', 'abgestürzt', 'hängt', 'friert ein', 'eingefroren', 'funktioniert nicht',
    'geht nicht', 'kaputt', 'schlägt fehl', 'fehlgeschlagen', 'ausnahme', 'schreibgeschützt', 'inkonsisten*',
  ],
  next: ['als nächstes', 'nächste', 'danach', 'soll ich', 'möchtest du', 'willst du', 'bitte teste', 'noch offen'],
  minor: ['gering', 'optional', 'ungenutzt', 'tippfehler', 'kommentar', 'doppelt', 'doppelte', 'redundant'],
  hedge: ['könnte', 'würde', 'vielleicht', 'alternativ*', 'option'],
};

const FRENCH: CueTable = {
  goalHeading: ['objectif', 'objectifs', 'tâche', 'exigences', 'contexte'],
  purpose: ['afin de', 'afin que', 'car', 'parce que', 'pour que', 'pour ne', 'pour éviter'],
  instruction: ['ajouter', 'supprimer', 'remplacer', 'corriger', 'créer', 'modifier', 'déplacer', 'renommer', 'installer', 'mettre à jour', 'utiliser'],
  change: [
    'changé', 'modifié', 'remplacé', 'remplacer', 'déplacé', 'renommé', 'migré', 'passé à', 'au lieu de', 'plutôt que',
    'décidé', 'choisi', 'opté', 'réécrit', 'utilise désormais', 'rétrogradé', 'remplacer', 'déplacer', 'renommer',
  ],
  weakChange: [
    'ajouté', 'supprimé', 'créé', 'corrigé', 'implémenté', 'installé', 'retiré', 'mis à jour', 'utilise', 'ne plus',
    'ajouter', 'supprimer', 'créer', 'corriger', 'installer', 'mettre à jour',
  ],
  summaryHeading: ['résumé', 'récapitulatif', 'modifications', 'changements', 'solution', 'correctifs', 'réalisé', 'terminé', 'plan'],
  decisionHeading: ['décisions', 'décision', 'décisions clés'],
  problemHeading: ['cause', 'cause racine', 'problème', 'problèmes', 'erreurs', 'diagnostic'],
  nextHeading: ['prochaines étapes', 'étapes suivantes', 'reste à faire', 'à faire', 'en attente', 'en cours'],
  planHeading: ['plan', 'proposition', 'étapes'],
  problem: [
    'erreur*', 'plante', 'planté', 'bloqué', 'gèle', 'figé', 'ne fonctionne pas', 'ne marche pas', 'échoue',
    'échec', 'impossible de', 'exception', 'lecture seule', 'incohéren*',
  ],
  next: ['prochaine', 'ensuite', 'voulez-vous', 'veux-tu', 'souhaitez-vous', 'je vais', 'reste à'],
  minor: ['mineur', 'optionnel', 'inutilisé', 'coquille', 'commentaire', 'dupliqué', 'doublon', 'redondant'],
  hedge: ['pourrait', 'pourrais', 'peut-être', 'alternative*', 'option'],
};

const PORTUGUESE: CueTable = {
  goalHeading: ['objetivo', 'objetivos', 'tarefa', 'requisitos', 'contexto'],
  purpose: ['para que', 'para não', 'para evitar', 'porque', 'pois', 'de modo que'],
  instruction: ['adicionar', 'remover', 'substituir', 'corrigir', 'criar', 'alterar', 'mover', 'renomear', 'instalar', 'atualizar', 'usar'],
  change: [
    'alterei', 'alterado', 'alterar', 'mudei', 'mudado', 'mudar para', 'substituí', 'substituído', 'substituir', 'movi',
    'movido', 'renomeei', 'renomeado', 'migrei', 'migrado', 'em vez de', 'ao invés de', 'decidi', 'decidimos',
    'escolhi', 'optei', 'reescrevi', 'agora usa', 'mover', 'renomear', 'migrar',
  ],
  weakChange: [
    'adicionei', 'adicionado', 'removi', 'removido', 'excluí', 'criei', 'criado', 'corrigi', 'corrigido',
    'implementei', 'implementado', 'instalei', 'atualizei', 'atualizado', 'usa', 'usar', 'não mais', 'adicionar',
    'remover', 'excluir', 'criar', 'corrigir', 'instalar', 'atualizar',
  ],
  summaryHeading: ['resumo', 'alterações', 'mudanças', 'solução', 'correções', 'concluído', 'feito', 'plano'],
  decisionHeading: ['decisões', 'decisão', 'decisões principais'],
  problemHeading: ['causa', 'causa raiz', 'problema', 'problemas', 'erros', 'diagnóstico'],
  nextHeading: ['próximos passos', 'próximo passo', 'pendente', 'pendentes', 'a fazer', 'falta'],
  planHeading: ['plano', 'proposta', 'passos'],
  problem: ['erro*', 'trava*', 'congela*', 'não funciona', 'falha*', 'quebrado', 'quebrou', 'não consigo', 'exceção', 'somente leitura', 'inconsisten*'],
  next: ['próximo', 'depois', 'quer que', 'deseja que', 'vou', 'falta', 'teste'],
  minor: ['menor', 'opcional', 'não usado', 'comentário', 'duplicado', 'duplicada', 'redundante'],
  hedge: ['poderia', 'talvez', 'alternativa*', 'opção'],
};

const CHINESE: CueTable = {
  goalHeading: ['目标', '任务', '需求', '背景'],
  purpose: ['为了', '以便', '因为', '以免', '避免', '这样'],
  instruction: ['添加', '删除', '修改', '替换', '创建', '更新', '使用', '移除'],
  change: ['改为', '改成', '改用', '替换', '换成', '迁移', '移到', '移至', '重命名', '而不是', '代替', '取代', '决定', '采用', '降级', '升级', '重写', '切换', '不再'],
  weakChange: ['添加', '新增', '删除', '移除', '创建', '修复', '实现', '安装', '更新', '使用'],
  summaryHeading: ['总结', '摘要', '变更', '修改', '改动', '解决方案', '完成'],
  decisionHeading: ['决策', '决定', '关键决策'],
  problemHeading: ['原因', '根本原因', '根因', '问题', '错误'],
  nextHeading: ['下一步', '后续', '待办', '剩余', '接下来'],
  planHeading: ['计划', '方案', '步骤'],
  problem: ['错误', '报错', '崩溃', '卡住', '卡死', '失败', '无法', '不能', '不工作', '异常', '冻结', '闪退', '只读', '不一致'],
  next: ['下一步', '接下来', '然后', '需要我', '要不要', '是否需要'],
  minor: ['次要', '可选', '未使用', '拼写', '注释', '重复'],
  hedge: ['可以考虑', '或者', '也许', '可能'],
};

const JAPANESE: CueTable = {
  goalHeading: ['目的', '目標', 'タスク', '要件', '背景'],
  purpose: ['ため', 'ように', 'ので', '避ける'],
  instruction: [],
  change: ['変更', '置き換え', '置換', '移動', '移行', '名前を変更', '代わりに', 'ではなく', '決定', '採用', '切り替え', 'ダウングレード', 'アップグレード', '書き直'],
  weakChange: ['追加', '削除', '作成', '修正', '実装', 'インストール', '更新', '使用'],
  summaryHeading: ['まとめ', '概要', '変更点', '変更内容', '修正内容', '対応内容', '完了'],
  decisionHeading: ['決定事項', '決定', '方針'],
  problemHeading: ['原因', '根本原因', '問題', 'エラー', '不具合'],
  nextHeading: ['次のステップ', '次の手順', '今後', '残り', '未対応'],
  planHeading: ['計画', '提案', '手順'],
  problem: ['エラー', 'クラッシュ', 'フリーズ', '固まる', '失敗', '動かない', '動作しない', 'できない', '例外', '落ちる', '読み取り専用', '不整合'],
  next: ['次に', '次は', '続けて', 'しますか', 'しましょうか'],
  minor: ['軽微', '任意', '未使用', 'タイポ', 'コメント', '重複'],
  hedge: ['かもしれ', '検討', 'または'],
};

/** Cue tables by ISO 639-3 code; `eng` is merged into every other one. */
export const TABLES: Readonly<Record<string, CueTable>> = {
  eng: ENGLISH,
  spa: SPANISH,
  deu: GERMAN,
  fra: FRENCH,
  por: PORTUGUESE,
  cmn: CHINESE,
  jpn: JAPANESE,
};

/** The languages with cue sets of their own. */
export const CUE_LANGUAGES: readonly string[] = Object.keys(TABLES);

/**
 * Turns written in other languages, as real coding sessions have them: the
 * user asks in their language and the model often answers in it, with its
 * decisions, problems and next steps phrased the way that language does.
 */
import { between, pick, relativePath, type Generator, type SessionLanguage, type Template } from './session-content.js';

export type { SessionLanguage } from './session-content.js';

/** The languages other than English, in a fixed order. */
export const OTHER_LANGUAGES: readonly Exclude<SessionLanguage, 'en'>[] = ['es', 'de', 'fr', 'pt', 'zh', 'ja'];

/** What a session in one language says: requests, decisions, problems, next steps, and summary headings. */
export interface LanguagePack {
  requests: readonly Template[];
  decisions: readonly Template[];
  problems: readonly Template[];
  next: readonly Template[];
  headings: { summary: string; decisions: string; state: string; next: string };
}

const LIBS = ['Redis', 'SQLite', 'Postgres', 'zod', 'vitest', 'pnpm', 'Docker', 'Tailwind', 'Prisma', 'FastAPI'] as const;
const VERSIONS = ['14.2.3', '15.1.0', '3.12', '5.4.2', '20.11.1', '8.0.1'] as const;
const lib = (gen: Generator): string => pick(gen, LIBS);
const version = (gen: Generator): string => pick(gen, VERSIONS);

/** The language packs; every sentence written for these sessions. */
export const LANGUAGES: Readonly<Record<Exclude<SessionLanguage, 'en'>, LanguagePack>> = {
  es: {
    requests: [
      (gen) => `Oye, cuando arranco el proyecto la página se queda en blanco. ¿Puedes revisar ${relativePath(gen)}?`,
      (gen) => `Necesito que el formulario de registro valide el correo antes de enviarlo. Usa ${lib(gen)} si hace falta.`,
      () => `Ahora sigue con las pruebas que faltan y dime qué queda pendiente.`,
    ],
    decisions: [
      (gen) => `Decidí cambiar ${lib(gen)} por ${lib(gen)} porque la versión actual da problemas al compilar.`,
      (gen) => `Cambié la versión de ${lib(gen)} a ${version(gen)} para que sea compatible con el resto.`,
      (gen) => `Vamos a usar ${lib(gen)} en lugar de escribir la validación a mano.`,
    ],
    problems: [
      (gen) => `El error persiste: la compilación falla en ${relativePath(gen)} con un tipo incorrecto.`,
      () => `El servidor se congela al cargar la lista completa de usuarios.`,
    ],
    next: [
      (gen) => `Próximos pasos: añadir pruebas para ${relativePath(gen)} y revisar el rendimiento.`,
      () => `Queda pendiente migrar la base de datos de producción.`,
    ],
    headings: { summary: 'Resumen', decisions: 'Decisiones clave', state: 'Estado actual', next: 'Próximos pasos' },
  },
  de: {
    requests: [
      (gen) => `Der Build schlägt seit gestern fehl. Kannst du dir ${relativePath(gen)} ansehen?`,
      (gen) => `Bitte stelle die Sitzungsverwaltung auf ${lib(gen)} um, der Speicher läuft sonst voll.`,
      () => `Mach bitte mit den offenen Tests weiter und sag mir, was noch fehlt.`,
    ],
    decisions: [
      (gen) => `Ich habe ${lib(gen)} durch ${lib(gen)} ersetzt, weil die alte Bibliothek nicht mehr gepflegt wird.`,
      (gen) => `Wir verwenden jetzt ${lib(gen)} statt der eigenen Implementierung.`,
      (gen) => `Die Version wurde auf ${version(gen)} festgelegt, damit die Abhängigkeiten zusammenpassen.`,
    ],
    problems: [
      (gen) => `Der Fehler tritt weiterhin auf: ${relativePath(gen)} lässt sich nicht kompilieren.`,
      () => `Beim Start stürzt der Dienst mit einer Zeitüberschreitung ab.`,
    ],
    next: [
      (gen) => `Nächste Schritte: Tests für ${relativePath(gen)} schreiben und die Migration prüfen.`,
      () => `Als Nächstes muss die Konfiguration für die Produktion angepasst werden.`,
    ],
    headings: { summary: 'Zusammenfassung', decisions: 'Wichtige Entscheidungen', state: 'Aktueller Stand', next: 'Nächste Schritte' },
  },
  fr: {
    requests: [
      (gen) => `La page de connexion renvoie une erreur 500. Tu peux regarder ${relativePath(gen)} ?`,
      (gen) => `Il faudrait remplacer le cache maison par ${lib(gen)}.`,
      () => `Continue avec les tests qui manquent, s'il te plaît.`,
    ],
    decisions: [
      (gen) => `J'ai remplacé ${lib(gen)} par ${lib(gen)} parce que la configuration était trop fragile.`,
      (gen) => `Nous utilisons désormais ${lib(gen)} au lieu d'un script écrit à la main.`,
    ],
    problems: [
      (gen) => `L'erreur persiste : la compilation échoue dans ${relativePath(gen)}.`,
      () => `Le serveur plante dès que la file de messages dépasse mille éléments.`,
    ],
    next: [
      (gen) => `Prochaines étapes : ajouter des tests pour ${relativePath(gen)} et mesurer les performances.`,
    ],
    headings: { summary: 'Résumé', decisions: 'Décisions clés', state: 'État actuel', next: 'Prochaines étapes' },
  },
  pt: {
    requests: [
      (gen) => `O build quebrou depois da atualização. Pode olhar ${relativePath(gen)}?`,
      (gen) => `Quero trocar o armazenamento das sessões para ${lib(gen)}.`,
      () => `Agora continue com os testes que faltam.`,
    ],
    decisions: [
      (gen) => `Troquei ${lib(gen)} por ${lib(gen)} porque a versão antiga não suporta o novo formato.`,
      (gen) => `Decidimos fixar a versão ${version(gen)} para evitar quebras.`,
    ],
    problems: [
      (gen) => `O erro continua: a compilação falha em ${relativePath(gen)}.`,
      () => `A aplicação trava ao abrir a tela de relatórios.`,
    ],
    next: [
      (gen) => `Próximos passos: escrever testes para ${relativePath(gen)} e revisar a migração.`,
    ],
    headings: { summary: 'Resumo', decisions: 'Decisões principais', state: 'Estado atual', next: 'Próximos passos' },
  },
  zh: {
    requests: [
      (gen) => `项目启动以后页面一直空白，能帮我看一下 ${relativePath(gen)} 吗？`,
      (gen) => `请把会话存储改成 ${lib(gen)}，现在内存占用太高了。`,
      () => `继续把剩下的测试补上，然后告诉我还差什么。`,
    ],
    decisions: [
      (gen) => `我把 ${lib(gen)} 换成了 ${lib(gen)}，因为旧版本和新的构建工具不兼容。`,
      (gen) => `决定使用 ${lib(gen)} 来代替手写的校验逻辑。`,
      (gen) => `已将版本固定为 ${version(gen)}，避免依赖冲突。`,
    ],
    problems: [
      (gen) => `问题仍然存在：${relativePath(gen)} 编译失败，类型不匹配。`,
      () => `服务启动时超时，然后直接崩溃。`,
    ],
    next: [
      (gen) => `下一步：为 ${relativePath(gen)} 编写测试，并检查性能。`,
      () => `接下来需要迁移生产环境的数据库。`,
    ],
    headings: { summary: '总结', decisions: '关键决策', state: '当前状态', next: '下一步' },
  },
  ja: {
    requests: [
      (gen) => `ビルドが昨日から失敗しています。${relativePath(gen)} を確認してもらえますか？`,
      (gen) => `セッションの保存先を ${lib(gen)} に変更してください。`,
      () => `残りのテストを追加して、未完了の作業を教えてください。`,
    ],
    decisions: [
      (gen) => `${lib(gen)} を ${lib(gen)} に置き換えました。古いライブラリはもう保守されていないためです。`,
      (gen) => `バージョンを ${version(gen)} に固定することにしました。`,
    ],
    problems: [
      (gen) => `エラーが解消されません：${relativePath(gen)} のコンパイルが失敗します。`,
      () => `起動時にタイムアウトしてサービスが落ちます。`,
    ],
    next: [
      (gen) => `次のステップ：${relativePath(gen)} のテストを書き、移行手順を確認します。`,
    ],
    headings: { summary: 'まとめ', decisions: '主な決定', state: '現在の状況', next: '次のステップ' },
  },
};

/** A user request in `language`. */
export function requestIn(gen: Generator, language: Exclude<SessionLanguage, 'en'>): string {
  return pick(gen, LANGUAGES[language].requests)(gen);
}

/** A short answer in `language`: a decision, sometimes a problem, and sometimes what comes next. */
export function answerIn(gen: Generator, language: Exclude<SessionLanguage, 'en'>): string {
  const pack = LANGUAGES[language];
  const sentences = [pick(gen, pack.decisions)(gen)];
  if (between(gen, 0, 2) === 0) sentences.push(pick(gen, pack.problems)(gen));
  if (between(gen, 0, 1) === 0) sentences.push(pick(gen, pack.next)(gen));
  return sentences.join(' ');
}

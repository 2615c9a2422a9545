/**
 * Japanese cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';

/** Japanese cues, by kind. */
export const JAPANESE: CueTable = cueTable({
  goalHeading: ['目的', '目標', 'タスク', '要件', '背景'],
  purpose: ['ため', 'ように', 'ので', '避ける'],
  instruction: {},
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
  hedge: ['かもしれ', '検討', 'または', '提案', 'お勧め', 'おすすめ', '推奨'],
  verified: ['成功', '通過', '確認済み', '結果', 'ステータス', '正常に動作'],
});

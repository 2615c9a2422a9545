/**
 * Chinese (Mandarin) cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';

/** Chinese (Mandarin) cues, by kind. */
export const CHINESE: CueTable = cueTable({
  goalHeading: ['目标', '任务', '需求', '背景'],
  purpose: ['为了', '以便', '因为', '以免', '避免', '这样'],
  instruction: {
    change: ['替换'],
    weakChange: ['添加', '删除', '创建', '更新', '使用', '移除'],
    only: ['修改'],
  },
  change: ['改为', '改成', '改用', '换成', '迁移', '移到', '移至', '重命名', '而不是', '代替', '取代', '决定', '采用', '降级', '升级', '重写', '切换', '不再'],
  weakChange: ['新增', '修复', '实现', '安装'],
  summaryHeading: ['总结', '摘要', '变更', '修改', '改动', '解决方案', '完成'],
  decisionHeading: ['决策', '决定', '关键决策'],
  problemHeading: ['原因', '根本原因', '根因', '问题', '错误'],
  nextHeading: ['下一步', '后续', '待办', '剩余', '接下来'],
  planHeading: ['计划', '方案', '步骤', '两步', '三步', '四步', '五步', '分步'],
  problem: ['错误', '报错', '崩溃', '卡住', '卡死', '失败', '无法', '不能', '不工作', '异常', '冻结', '闪退', '只读', '不一致'],
  next: ['下一步', '接下来', '然后', '需要我', '要不要', '是否需要'],
  minor: ['次要', '可选', '未使用', '拼写', '注释', '重复'],
  hedge: ['可以考虑', '或者', '也许', '可能', '建议', '会让', '会使', '会导致'],
  verified: ['成功', '通过', '已验证', '结果', '状态', '正常运行'],
});

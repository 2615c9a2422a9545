/**
 * French cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';
import { inflectFrench } from '../cue-inflections.js';

/** French cues, by kind. */
export const FRENCH: CueTable = cueTable({
  goalHeading: ['objectif', 'objectifs', 'tâche', 'exigences', 'contexte'],
  purpose: ['afin de', 'afin que', 'car', 'parce que', 'pour que', 'pour ne', 'pour éviter'],
  instruction: {
    change: ['remplacer', 'déplacer', 'renommer'],
    weakChange: ['ajouter', 'supprimer', 'corriger', 'créer', 'installer', 'mettre à jour'],
    only: ['modifier', 'utiliser'],
  },
  change: [
    'changé', 'modifié', 'remplacé', 'déplacé', 'renommé', 'migré', 'passé à', 'au lieu de', 'plutôt que', 'décidé',
    'choisi', 'opté', 'réécrit', 'utilise désormais', 'rétrogradé',
  ],
  weakChange: ['ajouté', 'supprimé', 'créé', 'corrigé', 'implémenté', 'installé', 'retiré', 'mis à jour', 'utilise', 'ne plus'],
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
  minor: ['mineur', 'inutilisé', 'coquille', 'commentaire', 'dupliqué', 'doublon', 'redondant'],
  hedge: ['pourrait', 'pourrais', 'peut-être', 'alternative*', 'option'],
  verified: ['réussi', 'avec succès', 'sans erreur', 'sans erreurs', 'fonctionne', 'vérifié', 'passent', 'résultat', 'résultats', 'statut'],
}, inflectFrench);

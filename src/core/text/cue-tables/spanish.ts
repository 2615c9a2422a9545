/**
 * Spanish cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import type { CueTable } from '../cue-kinds.js';

/** Spanish cues, by kind. */
export const SPANISH: CueTable = {
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

/**
 * Spanish cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';
import { inflectIberian } from '../cue-inflections.js';

/** Spanish cues, by kind. */
export const SPANISH: CueTable = cueTable({
  goalHeading: ['objetivo', 'objetivos', 'tarea', 'requisitos', 'contexto'],
  purpose: ['para que', 'para no', 'para evitar', 'porque', 'ya que', 'de modo que', 'sin que'],
  instruction: {
    change: ['cambiar', 'mover', 'reemplazar', 'migrar', 'renombrar'],
    weakChange: [
      'limpiar', 'crear', 'eliminar', 'agregar', 'añadir', 'actualizar', 'usar', 'instalar', 'reinstalar', 'corregir',
      'arreglar', 'quitar', 'borrar', 'conectar', 'envolver',
    ],
    only: ['editar', 'implementar', 'fijar', 'bajar', 'hacer', 'decidir'],
  },
  change: [
    'cambié', 'cambiado', 'cambia', 'reemplacé', 'reemplazado', 'sustituí', 'sustituido', 'moví', 'movido', 'migré',
    'migrado', 'renombré', 'renombrado', 'downgrade', 'bajé', 'fijé', 'fijado', 'en lugar de', 'en vez de', 'decidí',
    'decidimos', 'elegí', 'optamos', 'opté', 'ahora usa', 'reescribí', 'reescrito', 'reescribir', 'reescribo',
    'reemplazo', 'muevo', 'renombro', 'migro', 'cambio a',
  ],
  weakChange: [
    'agregué', 'agregado', 'añadí', 'añadido', 'eliminé', 'eliminado', 'borré', 'borrado', 'creé', 'creado',
    'corregí', 'corregido', 'implementé', 'implementado', 'arreglé', 'arreglado', 'instalé', 'quité', 'quitado',
    'configuré', 'conecté', 'conectado', 'actualicé', 'actualizado', 'usa', 'ya no', 'añado', 'agrego', 'elimino',
    'quito', 'actualizo', 'corrijo', 'arreglo', 'conecto', 'envuelvo', 'instalo', 'implemento', 'uso',
  ],
  summaryHeading: [
    'resumen', 'cambios', 'cambios realizados', 'solución', 'lo que hice', 'hecho', 'listo', 'completado',
    'implementado', 'implementación', 'cambio', 'corrección', 'correcciones', 'plan', 'resultado',
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
  minor: ['menor', 'sin usar', 'no usado', 'importación', 'comentario', 'duplicado', 'duplicada', 'redundante'],
  hedge: ['podría', 'podrías', 'si querés', 'si quieres', 'alternativa*', 'opción', 'quizás', 'tal vez'],
  verified: [
    'exitoso', 'exitosa', 'exitosamente', 'con éxito', 'sin errores', 'funciona', 'funcionando', 'verificado', 'verificada',
    'correctamente', 'pasan', 'resultado', 'resultados', 'estado',
  ],
}, inflectIberian);

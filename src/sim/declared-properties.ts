/**
 * The shape of an entity type's declared properties, per schema version, and the helpers that hold
 * each list equal to the Graph type packages at compile time (entity-properties.ts says why).
 */

export interface DeclaredProperties {
  /** The entity type's name without the namespace, as Graph's error names it. */
  type: string;
  'v1.0'?: readonly string[];
  beta?: readonly string[];
}

export type Missing<T, Listed> = Exclude<keyof T, Listed | '@odata.type'>;

/** The list as given, when it names every property of `T` and nothing else (a compile error otherwise). */
export function propertiesOf<T>() {
  return <const Listed extends readonly (keyof T)[]>(
    list: Listed & ([Missing<T, Listed[number]>] extends [never] ? unknown : { missing: Missing<T, Listed[number]> }),
  ): readonly string[] => list as readonly string[];
}

/** One list for both versions, where the two schemas declare the same properties (checked against each, as `propertiesOf`). */
export function propertiesOfBoth<V1, B>() {
  return <const Listed extends readonly (keyof V1 & keyof B)[]>(
    list: Listed &
      ([Missing<V1, Listed[number]>] extends [never] ? unknown : { missingOnV1: Missing<V1, Listed[number]> }) &
      ([Missing<B, Listed[number]>] extends [never] ? unknown : { missingOnBeta: Missing<B, Listed[number]> }),
  ): Pick<DeclaredProperties, 'v1.0' | 'beta'> => ({ 'v1.0': list as readonly string[], beta: list as readonly string[] });
}

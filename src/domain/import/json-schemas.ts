import { z } from 'zod';
import { type RecordType, recordSchemas, recordTypes } from './records.ts';

/**
 * The JSON Schema of each record type, generated from the zod schemas the importer validates with (a record,
 * or the deletion of one). The checks that span fields (an experience ending before it starts, annotation
 * offsets within the content, an organisation owning itself) are the importer's alone.
 */
export function importJsonSchemas(): Record<RecordType, Record<string, unknown>> {
  const schemas = {} as Record<RecordType, Record<string, unknown>>;
  for (const type of recordTypes) {
    const deletion = z.strictObject({
      type: z.literal(type).optional(),
      reference: z.guid(),
      deleted: z.literal(true),
    });
    const schema = z.toJSONSchema(z.union([recordSchemas[type], deletion]), { io: 'input' });
    schemas[type] = {
      $schema: schema.$schema,
      $id: `https://orgraph.invalid/schemas/import/${type}.json`,
      title: `orgraph import record: ${type}`,
      description:
        `One line of an NDJSON import file: a record of type ${type}, keyed by its reference, or its deletion. ` +
        '"type" may be left out in a file named after the type.',
      ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
    };
  }
  return schemas;
}

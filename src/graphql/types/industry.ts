import { findIndustry } from '../../domain/organisations/industries.ts';
import { builder } from '../builder.ts';
import { IndustryRef } from '../refs.ts';

builder.objectType(IndustryRef, {
  description:
    'A node of the GICS classification: a sector (level 1, 2 digits), industry group (2, 4 digits), industry (3, 6 digits) or sub-industry (4, 8 digits).',
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The GICS code, 2 to 8 digits.' }),
    name: t.exposeString('name', { description: 'The GICS name of the node.' }),
    level: t.exposeInt('level', { description: '1 sector, 2 industry group, 3 industry, 4 sub-industry.' }),
    parent: t.field({
      type: IndustryRef,
      nullable: true,
      description: 'The node one level up (the code minus its last two digits); null on a sector.',
      // The taxonomy is held in memory, so walking up costs no query.
      resolve: (industry) => (industry.parentCode ? findIndustry(industry.parentCode) : null),
    }),
  }),
});

import type { Random } from './random.ts';
import { uuidFor } from './random.ts';

/** A normalised job title (an `occupations` row) and the ways people record it on their profiles. */
export interface OccupationSpec {
  name: string;
  executive: boolean;
  /** Titles as recorded that normalise to this occupation, besides the name itself. */
  variants: readonly string[];
}

const functions = [
  ['Engineering', 'Engineering'],
  ['Finance', 'Finance'],
  ['Marketing', 'Marketing'],
  ['Sales', 'Sales'],
  ['Operations', 'Operations'],
  ['Human Resources', 'HR'],
  ['Product', 'Product'],
  ['Legal', 'Legal'],
  ['Compliance', 'Compliance'],
  ['Technology', 'Technology'],
  ['Investor Relations', 'IR'],
  ['Research', 'Research'],
  ['Strategy', 'Strategy'],
  ['Business Development', 'BD'],
  ['Customer Success', 'Customer Success'],
  ['Communications', 'Comms'],
  ['Risk', 'Risk'],
  ['Procurement', 'Procurement'],
  ['Design', 'Design'],
  ['Data', 'Data'],
] as const;

const exec = (name: string, ...variants: string[]): OccupationSpec => ({ name, executive: true, variants });
const staff = (name: string, ...variants: string[]): OccupationSpec => ({ name, executive: false, variants });

const leadership: OccupationSpec[] = [
  exec(
    'Chief Executive Officer',
    'CEO',
    'CEO & Co-Founder',
    'Group Chief Executive Officer',
    'Chief Executive',
  ),
  exec('Chief Financial Officer', 'CFO', 'Group CFO', 'CFO & Company Secretary'),
  exec('Chief Operating Officer', 'COO', 'Chief Operating Officer, Americas'),
  exec('Chief Technology Officer', 'CTO', 'CTO & Co-Founder'),
  exec('Chief Information Officer', 'CIO'),
  exec('Chief Marketing Officer', 'CMO'),
  exec('Chief Investment Officer', 'Group Chief Investment Officer'),
  exec('Chief Risk Officer', 'CRO (Risk)'),
  exec('Chief Compliance Officer', 'CCO'),
  exec('Chief People Officer', 'Chief Human Resources Officer', 'CHRO'),
  exec('Chief Product Officer', 'CPO'),
  exec('Chief Revenue Officer', 'CRO'),
  exec('Chief Data Officer', 'CDO'),
  exec('Chief Legal Officer', 'General Counsel & Chief Legal Officer'),
  exec('Chief Strategy Officer'),
  exec('Chief Commercial Officer'),
  exec('Chief Information Security Officer', 'CISO'),
  exec('Chief Sustainability Officer'),
  exec('Chief Digital Officer'),
  exec('Chief Scientific Officer'),
  exec('Chief Medical Officer'),
  exec('President', 'Co-President', 'President & CEO'),
  exec('Chairman', 'Chair', 'Chairman of the Board', 'Chairwoman', 'Executive Chairman'),
  exec('Vice Chairman', 'Vice Chair'),
  exec(
    'Managing Director',
    'MD',
    'Managing Director, Investment Banking',
    'Managing Director & Head of Europe',
  ),
  exec('Executive Director'),
  exec('Non-Executive Director', 'Independent Non-Executive Director'),
  exec('Founder', 'Founder & Managing Partner', 'Founder and CEO'),
  exec('Co-Founder', 'Co-founder'),
  exec('Partner', 'Senior Partner', 'Equity Partner'),
  exec('Managing Partner'),
  exec('General Partner'),
  exec('Senior Vice President', 'SVP', 'SVP, Sales'),
  exec('Executive Vice President', 'EVP'),
  exec('Vice President', 'VP'),
  exec('General Manager', 'GM'),
  exec('Country Manager'),
  exec('Regional Director', 'Regional Director, APAC'),
];

const functionalLeadership: OccupationSpec[] = functions.flatMap(([area, short]) => [
  exec(`Head of ${area}`, `Global Head of ${area}`),
  exec(`Vice President of ${area}`, `VP ${short}`, `VP, ${area}`, `Vice President, ${area}`),
  exec(`Director of ${area}`, `${area} Director`, `Director, ${area}`),
]);

const professionals: OccupationSpec[] = [
  staff(
    'Software Engineer',
    'Senior Software Engineer',
    'Software Developer',
    'Staff Software Engineer',
    'Software Engineer II',
  ),
  staff('Frontend Engineer', 'Front-End Developer'),
  staff('Backend Engineer', 'Senior Backend Engineer'),
  staff('Full Stack Developer'),
  staff('DevOps Engineer'),
  staff('Site Reliability Engineer', 'SRE'),
  staff('Data Engineer'),
  staff('Data Scientist', 'Senior Data Scientist'),
  staff('Machine Learning Engineer', 'ML Engineer'),
  staff('Data Analyst'),
  staff('QA Engineer', 'Test Engineer'),
  staff('Security Engineer'),
  staff('Network Engineer'),
  staff('Systems Administrator', 'Sysadmin'),
  staff('Database Administrator', 'DBA'),
  staff('IT Support Specialist', 'IT Helpdesk Technician'),
  staff('Solutions Architect'),
  staff('Software Architect'),
  staff('Technical Writer'),
  staff('Product Manager', 'Senior Product Manager'),
  staff('Project Manager'),
  staff('Program Manager'),
  staff('Product Designer'),
  staff('UX Designer', 'UX/UI Designer'),
  staff('Graphic Designer'),
  staff('Mechanical Engineer'),
  staff('Civil Engineer'),
  staff('Electrical Engineer'),
  staff('Chemical Engineer'),
  staff('Process Engineer'),
  staff('Field Engineer'),
  staff('Analyst', 'Senior Analyst', 'Junior Analyst'),
  staff('Financial Analyst', 'FP&A Analyst'),
  staff('Investment Analyst'),
  staff('Equity Research Analyst'),
  staff('Credit Analyst'),
  staff('Business Analyst'),
  staff('Risk Analyst'),
  staff('Operations Analyst'),
  staff('Associate', 'Senior Associate', 'Investment Associate'),
  staff('Consultant', 'Senior Consultant', 'Management Consultant'),
  staff('Accountant', 'Senior Accountant', 'Chartered Accountant'),
  staff('Auditor', 'Internal Auditor'),
  staff('Bookkeeper'),
  staff('Payroll Specialist'),
  staff('Tax Adviser', 'Tax Manager'),
  staff('Financial Controller', 'Controller'),
  staff('Actuary'),
  staff('Underwriter'),
  staff('Claims Adjuster'),
  staff('Trader', 'Equity Trader'),
  staff('Portfolio Manager', 'Senior Portfolio Manager'),
  staff('Fund Manager'),
  staff('Wealth Manager'),
  staff('Financial Adviser', 'Financial Advisor'),
  staff('Financial Planner'),
  staff('Investment Banker'),
  staff('Relationship Manager'),
  staff('Stockbroker'),
  staff('Compliance Officer'),
  staff('Sales Representative', 'Sales Rep', 'Inside Sales Representative'),
  staff('Account Executive'),
  staff('Account Manager'),
  staff('Key Account Manager'),
  staff('Business Development Manager'),
  staff('Sales Manager'),
  staff('Marketing Manager'),
  staff('Marketing Specialist'),
  staff('Brand Manager'),
  staff('Content Strategist'),
  staff('Copywriter'),
  staff('Social Media Manager'),
  staff('SEO Specialist'),
  staff('Communications Specialist'),
  staff('Customer Service Representative'),
  staff('Customer Success Manager'),
  staff('Support Engineer'),
  staff('Recruiter', 'Technical Recruiter'),
  staff('Talent Acquisition Specialist'),
  staff('HR Business Partner'),
  staff('HR Manager'),
  staff('Office Manager'),
  staff('Executive Assistant', 'Executive Assistant to the CEO'),
  staff('Administrative Assistant'),
  staff('Receptionist'),
  staff('Paralegal'),
  staff('Lawyer', 'Associate Lawyer'),
  staff('Solicitor'),
  staff('Legal Counsel', 'Senior Legal Counsel'),
  staff('Supply Chain Manager'),
  staff('Logistics Coordinator'),
  staff('Buyer', 'Senior Buyer'),
  staff('Procurement Specialist'),
  staff('Operations Manager'),
  staff('Plant Manager'),
  staff('Production Supervisor'),
  staff('Quality Manager'),
  staff('Laboratory Technician'),
  staff('Research Scientist'),
  staff('Economist'),
  staff('Statistician'),
  staff('Pharmacist'),
  staff('Physician'),
  staff('Nurse'),
  staff('Teacher'),
  staff('Lecturer'),
  staff('Professor'),
  staff('Journalist'),
  staff('Editor'),
  staff('Translator'),
  staff('Electrician'),
  staff('Maintenance Technician'),
  staff('Warehouse Operative'),
  staff('Store Manager'),
  staff('Retail Assistant'),
  staff('Chef'),
  staff('Intern', 'Summer Intern'),
  staff('Graduate Trainee'),
  staff('Research Assistant'),
];

/** About 200 normalised job titles; the index in this list fixes each one's reference. */
export const occupations: readonly OccupationSpec[] = [
  ...leadership,
  ...functionalLeadership,
  ...professionals,
];

export const executiveOccupationIndexes: readonly number[] = occupations.flatMap((o, i) =>
  o.executive ? [i] : [],
);
export const staffOccupationIndexes: readonly number[] = occupations.flatMap((o, i) =>
  o.executive ? [] : [i],
);

/** The most senior roles, used for appointments worth a compensation package or a board review. */
export const topOccupationIndexes: readonly number[] = leadership.slice(0, 28).map((_, i) => i);

export function occupationReference(index: number): string {
  return uuidFor('occupation', index);
}

/** Titles as people write them that map to no normalised occupation. */
const unmatchedTitles = {
  executive: ['Owner', 'Founder & Chief Tinkerer', 'Board Member', 'Proprietor', 'Principal'],
  staff: [
    'Advisor',
    'Self-employed',
    'Freelancer',
    'Volunteer',
    'Entrepreneur in Residence',
    'Student',
    'Mentor',
  ],
};

export interface RecordedTitle {
  title: string;
  /** Index into `occupations`, or null when the title normalises to nothing. */
  occupation: number | null;
}

/** A title as a person recorded it, with the occupation it normalises to (none on about 6%). */
export function recordTitle(random: Random, executive: boolean): RecordedTitle {
  if (random.chance(0.06)) {
    return {
      title: random.pick(executive ? unmatchedTitles.executive : unmatchedTitles.staff),
      occupation: null,
    };
  }
  const occupation = random.pick(executive ? executiveOccupationIndexes : staffOccupationIndexes);
  const spec = occupations[occupation]!;
  if (spec.variants.length === 0 || random.chance(0.55)) {
    return { title: spec.name, occupation };
  }
  return { title: random.pick(spec.variants), occupation };
}

/** A title for one of the most senior roles. */
export function recordTopTitle(random: Random): RecordedTitle {
  const occupation = random.pick(topOccupationIndexes);
  const spec = occupations[occupation]!;
  const title = spec.variants.length > 0 && random.chance(0.4) ? random.pick(spec.variants) : spec.name;
  return { title, occupation };
}

import type {
  Annotation,
  Article,
  ClientSummary,
  Event,
  Experience,
  Industry,
  Occupation,
  Organisation,
  Profile,
  ProfileStake,
  SavedSearch,
} from '../domain/records.ts';
import { builder } from './builder.ts';

// Declared apart from their implementations so that any type file can link to any other.
export const OrganisationRef = builder.objectRef<Organisation>('Organisation');
export const ProfileRef = builder.objectRef<Profile>('Profile');
export const ExperienceRef = builder.objectRef<Experience>('Experience');
export const OccupationRef = builder.objectRef<Occupation>('Occupation');
export const IndustryRef = builder.objectRef<Industry>('Industry');
export const ClientSummaryRef = builder.objectRef<ClientSummary>('ClientSummary');
export const ArticleRef = builder.objectRef<Article>('Article');
export const AnnotationRef = builder.objectRef<Annotation>('Annotation');
export const ProfileStakeRef = builder.objectRef<ProfileStake>('ProfileStake');
export const SavedSearchRef = builder.objectRef<SavedSearch>('SavedSearch');
export const EventRef = builder.interfaceRef<Event>('Event');
export const MoveEventRef = builder.objectRef<Event>('MoveEvent');
export const FundingEventRef = builder.objectRef<Event>('FundingEvent');
export const DealEventRef = builder.objectRef<Event>('DealEvent');
export const PublicOfferingEventRef = builder.objectRef<Event>('PublicOfferingEvent');
export const ClientSummaryEventRef = builder.objectRef<Event>('ClientSummaryEvent');

import { isDeepStrictEqual } from 'node:util';
import type { DirectContext, HttpRequest, PeerContext, PeerScenario, Scenario } from './scenarios.ts';
import type { InProcessApp } from './statements.ts';

/** How the answers of orgraph, PostGraphile and the direct reads compared over the checked samples. */
export interface AnswerCheck {
  samples: number;
  /** Samples where PostGraphile's answer equals orgraph's (null: no peer). */
  peerMatched: number | null;
  /** Samples where the direct reads' answer equals orgraph's (null: not compared). */
  directMatched: number | null;
  firstDifference?: string;
}

export async function peerFetch(baseUrl: string, request: HttpRequest): Promise<unknown> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  if (!response.ok) throw new Error(`PostGraphile answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The first place two normalised answers differ, as a short path and both values. */
function differenceOf(left: unknown, right: unknown, path = ''): string | null {
  if (isDeepStrictEqual(left, right)) return null;
  if (Array.isArray(left) && Array.isArray(right)) {
    if (left.length !== right.length) return `${path || '/'}: ${left.length} items against ${right.length}`;
    for (let i = 0; i < left.length; i += 1) {
      const found = differenceOf(left[i], right[i], `${path}/${i}`);
      if (found) return found;
    }
  }
  if (left && right && typeof left === 'object' && typeof right === 'object') {
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      const found = differenceOf(
        (left as Record<string, unknown>)[key],
        (right as Record<string, unknown>)[key],
        `${path}/${key}`,
      );
      if (found) return found;
    }
  }
  return `${path || '/'}: ${JSON.stringify(left)?.slice(0, 200)} against ${JSON.stringify(right)?.slice(0, 200)}`;
}

/**
 * Asks orgraph (in process), PostGraphile and the direct reads for the same `samples` requests and compares
 * their answers in the scenario's normal shape, row for row, before anything is timed.
 */
export async function checkAnswers(
  app: InProcessApp,
  scenario: Scenario,
  context: DirectContext,
  peer: { baseUrl: string; context: PeerContext } | null,
  samples = 12,
): Promise<AnswerCheck | null> {
  if (!scenario.normalise) return null;
  const peerScenario = scenario.peer && 'request' in scenario.peer ? (scenario.peer as PeerScenario) : null;
  const compareDirect = scenario.directKind === 'hand-written SQL';
  const check: AnswerCheck = {
    samples,
    peerMatched: peer && peerScenario ? 0 : null,
    directMatched: compareDirect ? 0 : null,
  };
  for (let index = 0; index < samples; index += 1) {
    const response = await app.fetch(scenario.request(index));
    const mine = scenario.normalise(await response.json());
    if (check.peerMatched !== null && peer && peerScenario) {
      const theirs = peerScenario.normalise(
        await peerFetch(peer.baseUrl, peerScenario.request(index, peer.context)),
      );
      const difference = differenceOf(mine, theirs);
      if (difference) check.firstDifference ??= `PostGraphile, sample ${index}: ${difference}`;
      else check.peerMatched += 1;
    }
    if (check.directMatched !== null) {
      const direct = await scenario.direct(app.db, index, context);
      const difference = differenceOf(mine, direct);
      if (difference) check.firstDifference ??= `direct, sample ${index}: ${difference}`;
      else check.directMatched += 1;
    }
  }
  return check;
}

/** The shape of every answer, a profile's `answers` key: the seed bank's, or the Berlin Group 1.3.11 yaml's (docs/profiles.md). */
export type AnswerStyle = 'bank' | 'berlin-group';

/**
 * Where the seed bank's answers carry what Berlin Group's leave out (docs/profiles.md, "answers"):
 * the SCA page even when nothing is left to authorise (a consent valid at creation, SCA_MODE=auto),
 * and the first authorisation's status link by a placeholder instead of its ID.
 */
export interface AnswerHabits {
  scaLinkWhenDone: boolean;
  placeholderScaStatus: boolean;
}

export const ANSWER_HABITS: Record<AnswerStyle, AnswerHabits> = {
  bank: { scaLinkWhenDone: true, placeholderScaStatus: true },
  'berlin-group': { scaLinkWhenDone: false, placeholderScaStatus: false },
};

/** The shape of every answer, a profile's `answers` key: the seed bank's, or the Berlin Group 1.3.11 yaml's (docs/profiles.md). */
export type AnswerStyle = 'bank' | 'berlin-group';

/** The detail's title: the training's name, or 'Training details' (spec 2.19). */
export function trainingTitle(training: { title?: string | null; name?: string | null } | null | undefined): string {
  return training?.title?.trim() || training?.name?.trim() || 'Training details';
}

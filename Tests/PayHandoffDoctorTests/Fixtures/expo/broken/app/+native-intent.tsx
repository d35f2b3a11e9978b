// app/+native-intent.tsx: expo-router asks here where every incoming URL goes.
// PayHandoff's return and POS answer go to the coordinator and to no screen.
import { payments, run } from '../payments'; // where the app keeps its coordinator and its effects loop

export function redirectSystemPath({ path, initial }: { path: string; initial: boolean }) {
  // initial: the URL that started the app (after process death the coordinator must be
  // restored from its snapshot before this runs).
  try {
    const answer = payments.handleUrl(path);
    if (answer.outcome === 'not_ours') return path; // the app's own links: the router navigates
    void run(answer); // listenForDeepLinks may see it too: the core answers that one 'duplicate'
    return null; // PayHandoff's URL: the router navigates nowhere, the payment screen stays
  } catch {
    return path; // not a URL the core reads
  }
}

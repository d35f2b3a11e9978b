// SPDX-License-Identifier: Apache-2.0
// make proguard-check: an app minified with the AAR's consumer rules (scripts/proguard_check.sh).
// It logs what apps log: an answer's outcome, an enum, an effect type; the check reads the names.
import com.payhandoff.Answer;
import com.payhandoff.Coordinator;
import com.payhandoff.EffectType;
import com.payhandoff.PayHandoff;

public final class MinifiedApp {
    public static void main(String[] args) {
        PayHandoff.load();
        try (Coordinator coordinator = new Coordinator()) {
            // A deep link for another part of the app: the core answers not_ours.
            Answer answer = coordinator.handleUrl("otherapp://somewhere/else", 1796054400000L);
            System.out.println("outcome: " + answer.getOutcome());
            System.out.println("outcome type: " + answer.getOutcome().getType());
            System.out.println("effect type: " + EffectType.OPEN_BROWSER);
            System.out.println("outcome class: " + answer.getOutcome().getClass().getName());
        }
    }
}

// What the Android guide's Java Activity takes from the app itself (bindings/android/README.md,
// *First integration*, "From Java"): compiled next to it by make consumer-check. Not part of the guide.
import com.payhandoff.Effect;
import com.payhandoff.Transition;

final class App {
    static final String POS_USER_TOKEN = "bp-user-token";
    static String savedSnapshot() { return null; }
    static void saveSnapshot(String snapshot) {}
    static void show(Transition transition, Effect effect) {}
}

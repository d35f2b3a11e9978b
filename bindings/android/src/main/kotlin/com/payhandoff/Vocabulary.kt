// Hand-written stand-in for the file tools/abigen will generate from abi/payhandoff.json.
// Same shape and names as the generated file (the vocabulary contract of issue 21); the words
// are copied from the core's Swift enums named on each enum. Replace it with the generated file.
package com.payhandoff

/** The error codes of the C ABI (`PayHandoffError.Code`), plus the binding-only `out_of_memory` and `abi_mismatch`. */
enum class ErrorCode(val wire: String) {
    INVALID_ARGUMENT("invalid_argument"),
    INVALID_JSON("invalid_json"),
    VALIDATION("validation"),
    MALFORMED_URL("malformed_url"),
    CALLBACK_MISMATCH("callback_mismatch"),
    UNKNOWN_FLOW("unknown_flow"),
    DUPLICATE("duplicate"),
    INVALID_STATE("invalid_state"),
    UNSUPPORTED_VERSION("unsupported_version"),
    LIMIT_EXCEEDED("limit_exceeded"),
    GATEWAY_ERROR("gateway_error"),
    CONFLICT("conflict"),
    NOT_ELIGIBLE("not_eligible"),
    OUT_OF_MEMORY("out_of_memory"),
    ABI_MISMATCH("abi_mismatch");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): ErrorCode? = values().firstOrNull { it.wire == wire }
    }
}

/** The pinned status numbers of include/payhandoff.h (`Sources/PayHandoffABI/Status.swift`): 0, or an error code's. */
enum class Status(val code: Int) {
    OK(0),
    INVALID_ARGUMENT(1),
    INVALID_JSON(2),
    VALIDATION(3),
    MALFORMED_URL(4),
    CALLBACK_MISMATCH(5),
    UNKNOWN_FLOW(6),
    DUPLICATE(7),
    INVALID_STATE(8),
    UNSUPPORTED_VERSION(9),
    LIMIT_EXCEEDED(10),
    GATEWAY_ERROR(11),
    CONFLICT(12),
    NOT_ELIGIBLE(13);

    companion object {
        /** The constant whose number is [code], or null for a number this binding does not know. */
        @JvmStatic fun of(code: Int): Status? = values().firstOrNull { it.code == code }
    }
}

/** The coordinator event `type` words (`CoordinatorEvent`'s JSON spelling). */
enum class EventType(val wire: String) {
    CHECKOUT_START("checkout.start"),
    CHECKOUT_SESSION("checkout.session"),
    CHECKOUT_SESSION_FAILED("checkout.session_failed"),
    CHECKOUT_BROWSER_OPENED("checkout.browser_opened"),
    CHECKOUT_BROWSER_DISMISSED("checkout.browser_dismissed"),
    CHECKOUT_CONFIRMATION("checkout.confirmation"),
    POS_START("pos.start"),
    POS_LAUNCHED("pos.launched"),
    POS_LAUNCH_FAILED("pos.launch_failed"),
    POS_RESULT("pos.result"),
    APP_FOREGROUNDED("app.foregrounded"),
    TICK("tick"),
    URL("url"),
    FLOW_REMOVE("flow.remove");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): EventType? = values().firstOrNull { it.wire == wire }
    }
}

/** What the coordinator did with an event (`EventOutcome`). */
enum class EventOutcome(val wire: String) {
    ACCEPTED("accepted"),
    DUPLICATE("duplicate"),
    IGNORED("ignored"),
    REJECTED("rejected"),
    NOT_OURS("not_ours");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): EventOutcome? = values().firstOrNull { it.wire == wire }
    }
}

/** The effect `type` words (`FlowEffect`): what the host must do. */
enum class EffectType(val wire: String) {
    SEND_REQUEST("send_request"),
    CREATE_SESSION("create_session"),
    OPEN_BROWSER("open_browser"),
    CLOSE_BROWSER("close_browser"),
    SHOW_PENDING("show_pending"),
    OPEN_POS_APP("open_pos_app"),
    SHOW_HINT("show_hint"),
    RECONCILE("reconcile"),
    PERSIST("persist");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): EffectType? = values().firstOrNull { it.wire == wire }
    }
}

/** The states of a checkout flow (`CheckoutFlow.State`). */
enum class CheckoutState(val wire: String) {
    AWAITING_SESSION("awaiting_session"),
    READY("ready"),
    IN_BROWSER("in_browser"),
    RETURNED_WITHOUT_RESULT("returned_without_result"),
    AWAITING_CONFIRMATION("awaiting_confirmation"),
    CONFIRMED("confirmed"),
    FAILED("failed"),
    CANCELLED("cancelled"),
    EXPIRED("expired");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): CheckoutState? = values().firstOrNull { it.wire == wire }
    }
}

/** The states of a POS flow (`POSFlow.State`). */
enum class PosState(val wire: String) {
    READY("ready"),
    LAUNCHED("launched"),
    LAUNCH_FAILED("launch_failed"),
    APPROVED("approved"),
    APPROVED_AMOUNT_MISMATCH("approved_amount_mismatch"),
    DECLINED("declined"),
    ERROR("error"),
    RETURNED_WITHOUT_RESPONSE("returned_without_response");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): PosState? = values().firstOrNull { it.wire == wire }
    }
}

/** The hosted-checkout session kinds (`CheckoutKind`): card registration or payment. */
enum class CheckoutKind(val wire: String) {
    CARDS("cards"),
    PAYMENTS("payments");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): CheckoutKind? = values().firstOrNull { it.wire == wire }
    }
}

/** The status a checkout callback reports (`CheckoutCallback.Status`); `completed` is not a confirmation. */
enum class CheckoutStatus(val wire: String) {
    COMPLETED("completed"),
    FAILED("failed"),
    CANCELLED("cancelled");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): CheckoutStatus? = values().firstOrNull { it.wire == wire }
    }
}

/** How the host shows the hosted checkout (`CheckoutRequest.Integration`). */
enum class CheckoutIntegration(val wire: String) {
    BROWSER_TAB("browser_tab"),
    IFRAME("iframe");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): CheckoutIntegration? = values().firstOrNull { it.wire == wire }
    }
}

/** The relayed webhook types that confirm a checkout (`CheckoutKind.confirmationType`). */
enum class ConfirmationType(val wire: String) {
    CARD_REGISTERED("card.registered"),
    PAYMENT_CONFIRMED("payment.confirmed");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): ConfirmationType? = values().firstOrNull { it.wire == wire }
    }
}

/** The `result` of a POS answer (`POSResponse.Result`). */
enum class PosResult(val wire: String) {
    APPROVED("approved"),
    DECLINED("declined"),
    ERROR("error");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): PosResult? = values().firstOrNull { it.wire == wire }
    }
}

/** The `accountType` of a POS answer (`POSResponse.AccountType`). */
enum class AccountType(val wire: String) {
    CREDIT("credit"),
    DEBIT("debit");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): AccountType? = values().firstOrNull { it.wire == wire }
    }
}

/** Billpocket's `transaction` values (`POSRequest.Operation`). */
enum class PosOperation(val wire: String) {
    VENTA("venta"),
    DEVOLUCION("devolucion");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): PosOperation? = values().firstOrNull { it.wire == wire }
    }
}

/** Why a refund is not possible now (`RefundEligibility.Reason`). */
enum class RefundReason(val wire: String) {
    TOO_SOON("too_soon"),
    PAST_DEADLINE("past_deadline"),
    AMOUNT_EXCEEDS_ORIGINAL("amount_exceeds_original"),
    POS_APP_TOO_OLD("pos_app_too_old");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): RefundReason? = values().firstOrNull { it.wire == wire }
    }
}

/** What a refund verdict could not check, without blocking the refund (`RefundEligibility.Warning`). */
enum class RefundWarning(val wire: String) {
    POS_APP_VERSION_UNKNOWN("pos_app_version_unknown");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): RefundWarning? = values().firstOrNull { it.wire == wire }
    }
}

/**
 * The flow types of a transition's `flow` and a flow document's `type` (`Coordinator.Flow`'s
 * `typeName`). Not in the vocabulary contract's list: abi/payhandoff.json needs this vocabulary too.
 */
enum class FlowType(val wire: String) {
    CHECKOUT("checkout"),
    POS("pos");

    companion object {
        /** The constant whose wire word is [wire], or null for a word this binding does not know. */
        @JvmStatic fun of(wire: String): FlowType? = values().firstOrNull { it.wire == wire }
    }
}

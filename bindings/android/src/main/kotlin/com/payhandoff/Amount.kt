package com.payhandoff

/**
 * An amount as the C ABI reads it: decimal text (`"100.00"`, at most two decimals) or integer minor
 * units (`10000` is 100.00). Never floating point: a `Double` cannot hold 0.10 exactly. Nothing is
 * checked here; the core refuses a bad amount naming its member (`amount`, `request.tip`, …).
 * Answers give amounts as the text the core prints (`"100.00"`).
 */
class Amount private constructor(private val text: String?, private val units: Long) {
    /** The member's JSON value: the text, or the minor units as an integer. */
    internal val json: Any
        get() = text ?: units

    override fun equals(other: Any?): Boolean = other is Amount && other.text == text && other.units == units

    override fun hashCode(): Int = text?.hashCode() ?: units.hashCode()

    override fun toString(): String = text ?: "$units minor units"

    companion object {
        /** Decimal text, as Billpocket writes it: `"100.00"`, `"100.5"`, `"100"`. */
        @JvmStatic fun of(text: String): Amount = Amount(text, 0L)

        /** Integer minor units (cents): `10000` is 100.00. */
        @JvmStatic fun ofMinorUnits(units: Long): Amount = Amount(null, units)
    }
}

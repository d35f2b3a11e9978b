/* cJSON as the WebAssembly module compiles it (scripts/build-wasm.sh): Debian's cJSON source,
 * unchanged (third_party/cjson/cJSON.c is included below), with its three calls into libc's
 * printf/scanf/strtod family answered by the small functions of this file.
 *
 * Why: the .wasm links wasi-libc statically, and cJSON's number code is, with libc's own
 * arc4random_buf (replaced by payhandoff_wasm_random.c), all that reaches printf_core, __floatscan
 * and their helpers: about 20 KB of a module whose size has a goal (issue 26). The native
 * libraries take libc (and dist/embedded Debian's libcjson.so) dynamically, so they keep the real
 * functions and nothing here concerns them.
 *
 * What cJSON asks of them, and why the replacements are enough (each is tested against glibc's
 * and wasi-libc's own by Tests/WasmLibc/numbers_test.c, which includes this file):
 *   strtod  parse_number hands it the number's text (only the characters 0-9, +, -, e, E and '.',
 *           starting with '-' or a digit: no whitespace, "inf", "nan" or hexadecimal). The
 *           C ABI's reader (Sources/PayHandoffABI/JSONText+Reader.swift) then accepts a number
 *           only when the double is an integer within +-(2^53 - 1), and cJSON reads nothing else
 *           of it. payhandoff_wasm_strtod ends where strtod ends, and returns the very double
 *           strtod returns whenever that double is such an integer, and otherwise a double the
 *           reader refuses just the same (a half for a fraction, HUGE_VAL beyond the range).
 *   sprintf "u%04x" when a string holds a control character (reached), "%i.%i.%i" in
 *           cJSON_Version, and in print_number "null", "%1.15g" and "%1.17g". print_number is
 *           never reached: the C ABI writes every integer as a cJSON_Raw node of its digits
 *           (JSONText+TreeWriter.swift). Even so, for every integral double within
 *           +-(2^53 - 1) it prints what cJSON prints with the platform's printf; for any other
 *           double it fails (-1), so cJSON reports a print failure rather than a wrong number.
 *   sscanf  "%lg" in print_number, of the text the sprintf above wrote (an integer).
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest integer the reader accepts: 2^53 - 1. */
#define PAYHANDOFF_WASM_MAX_INTEGER ((((uint64_t)1) << 53) - 1)

/* Enough decimal digits for 5^1075 (752 of them: 2^-1075 = 5^1075 / 10^1075). */
#define PAYHANDOFF_WASM_FIVE_POWER_DIGITS 752

/* The significant digits of a number's text, from its first nonzero digit to its last one, with
 * the radix point skipped. */
typedef struct
{
    const char *first;  /* the first nonzero digit */
    const char *point;  /* the radix point, when it lies after first; else NULL */
    size_t count;       /* how many significant digits, up to and including the last nonzero one */
} payhandoff_wasm_digits;

/* The significant digit at index (0 for the first), 0 past the last nonzero one. */
static int payhandoff_wasm_digit(const payhandoff_wasm_digits *digits, size_t index)
{
    const char *at;
    if (index >= digits->count)
    {
        return 0;
    }
    at = digits->first + index;
    if ((digits->point != NULL) && (at >= digits->point))
    {
        at++;
    }
    return *at - '0';
}

/* Compares the fraction 0.a(start) a(start+1) ... (a, the significant digits) with the fraction
 * 0.t[0] t[1] ... t[length-1] (digit values): -1, 0 or 1. Only length digits are read, plus
 * whether a nonzero digit follows them, so a long text costs no more than a short one. */
static int payhandoff_wasm_compare(const payhandoff_wasm_digits *digits, size_t start,
                                   const unsigned char *threshold, size_t length)
{
    size_t i;
    for (i = 0; i < length; i++)
    {
        int digit = payhandoff_wasm_digit(digits, start + i);
        if (digit != threshold[i])
        {
            return (digit < threshold[i]) ? -1 : 1;
        }
    }
    return (digits->count > start + length) ? 1 : 0;
}

/* Writes the decimal digits of 5^exponent (values 0-9, most significant first) right-aligned
 * into the first `width` entries of `out`, zeros before them: with width = exponent, that is the
 * fraction 2^-exponent = 5^exponent / 10^exponent. Returns how many digits 5^exponent has. */
static size_t payhandoff_wasm_five_power(unsigned exponent, unsigned char *out, size_t width)
{
    /* Little-endian while multiplying; 5^1075 has 752 digits. */
    unsigned char reversed[PAYHANDOFF_WASM_FIVE_POWER_DIGITS];
    size_t length = 1;
    size_t i;
    reversed[0] = 1;
    while (exponent-- > 0)
    {
        unsigned carry = 0;
        for (i = 0; i < length; i++)
        {
            unsigned product = reversed[i] * 5u + carry;
            reversed[i] = (unsigned char)(product % 10u);
            carry = product / 10u;
        }
        if (carry != 0)
        {
            reversed[length++] = (unsigned char)carry;
        }
    }
    for (i = 0; i + length < width; i++)
    {
        out[i] = 0;
    }
    for (i = 0; i < length; i++)
    {
        out[width - 1 - i] = reversed[i];
    }
    return length;
}

/* The double parse_number gets from strtod, as far as the reader can tell (see the top of the
 * file): `text` is read as strtod reads a decimal number in the C locale, *end set the same way.
 *
 * The number is V = 0.d1 d2 d3 ... x 10^E with d1 the first nonzero digit. The double strtod
 * returns is V rounded to nearest, ties to even. Whether that double is an integer within
 * +-(2^53 - 1) is decided exactly from the digits, in cases on V's integer part I and fraction F:
 *   - V = 0, or V <= 2^-1075 (half the least subnormal; a tie rounds to the even 0): the double
 *     is 0. E < -323 means V < 10^-324 < 2^-1075; E in [-322, -1] means V >= 10^-323 > 2^-1075
 *     and V < 0.1; only E = -323 needs the digits of 2^-1075 = 0.[323 zeros]24703282...
 *   - V < 1 otherwise: the double is 1 when V >= 1 - 2^-54 (half an ulp below 1; a tie rounds
 *     to the even 1), and a fraction below 1 otherwise.
 *   - E > 16: V >= 10^16 > 2^53, out of range. Otherwise I < 10^16 fits in 64 bits.
 *   - I in [2^k, 2^(k+1)) with k <= 51: doubles there are the multiples of u = 2^(k-52) <= 1/2,
 *     so I and I + 1 are doubles, both an even multiple of u (or, for I + 1 = 2^(k+1), the even
 *     first double of the next binade). The double is I when F <= u/2 = 2^-(53-k) (a tie goes to
 *     the even I), I + 1 when F >= 1 - 2^-(53-k), and otherwise the nearest multiple of u, which
 *     lies strictly between I and I + 1: a fraction.
 *   - I in [2^52, 2^53): u = 1, every double is an integer: I, or I + 1 when F > 1/2 or F = 1/2
 *     with I odd; out of range when that is 2^53.
 *   - I >= 2^53: out of range.
 * Each comparison of F with a threshold of p decimal places (2^-p and 1 - 2^-p have exactly p)
 * reads at most p digits of F and whether a nonzero digit follows (which is exact: past p places
 * the threshold is all zeros), and p <= 1075 (the digits of 5^1075 are worked out once), so no text
 * costs more than its own length plus a few thousand steps; exponents saturate near 10^18,
 * where the decision no longer depends on them (texts are far shorter than 10^17 digits). */
static double payhandoff_wasm_strtod(const char *text, char **end)
{
    static unsigned char tiny[PAYHANDOFF_WASM_FIVE_POWER_DIGITS]; /* the digits of 5^1075 */
    static size_t tiny_length = 0;                                 /* computed on first use */
    const uint64_t exponent_limit = (uint64_t)100000000 * 1000000000; /* 10^17: grows to 10^18 at most */
    const char *at = text;
    const char *last = NULL;
    const char *point = NULL;
    payhandoff_wasm_digits digits;
    double sign = 1.0;
    int any_digit = 0;
    size_t integer_digits = 0;    /* digits before the radix point, from the first nonzero one */
    size_t leading_zeros = 0;     /* zeros between the radix point and a first nonzero digit after it */
    uint64_t exponent = 0;
    int negative_exponent = 0;
    int64_t scale;                /* E */
    uint64_t integer = 0;
    unsigned char threshold[54];
    size_t precision;             /* p */
    int i;

    digits.first = NULL;
    if ((*at == '+') || (*at == '-'))
    {
        sign = (*at == '-') ? -1.0 : 1.0;
        at++;
    }
    for (;; at++)
    {
        if ((*at >= '0') && (*at <= '9'))
        {
            any_digit = 1;
            if (*at != '0')
            {
                if (digits.first == NULL)
                {
                    digits.first = at;
                }
                last = at;
            }
            else if ((digits.first == NULL) && (point != NULL))
            {
                leading_zeros++;
            }
            if ((digits.first != NULL) && (point == NULL))
            {
                integer_digits++;
            }
        }
        else if ((*at == '.') && (point == NULL))
        {
            point = at;
        }
        else
        {
            break;
        }
    }
    if (!any_digit)
    {
        /* No conversion: strtod returns 0 and sets *end to the text. */
        if (end != NULL)
        {
            *end = (char *)text;
        }
        return 0.0;
    }
    /* An exponent counts only with at least one digit; "1e" and "1e+" end before the 'e'. */
    if (((*at == 'e') || (*at == 'E')))
    {
        const char *mark = at + 1;
        if ((*mark == '+') || (*mark == '-'))
        {
            negative_exponent = (*mark == '-');
            mark++;
        }
        if ((*mark >= '0') && (*mark <= '9'))
        {
            for (at = mark; (*at >= '0') && (*at <= '9'); at++)
            {
                if (exponent < exponent_limit)
                {
                    exponent = exponent * 10 + (uint64_t)(*at - '0');
                }
            }
        }
    }
    if (end != NULL)
    {
        *end = (char *)at;
    }
    if (digits.first == NULL)
    {
        return sign * 0.0;
    }

    digits.point = ((point != NULL) && (point > digits.first)) ? point : NULL;
    digits.count = (size_t)(last - digits.first) + 1 - (((digits.point != NULL) && (digits.point < last)) ? 1 : 0);
    scale = (int64_t)integer_digits - (int64_t)leading_zeros
            + (negative_exponent ? -(int64_t)exponent : (int64_t)exponent);

    if (scale > 16)
    {
        return sign * HUGE_VAL;
    }
    if (scale < -323)
    {
        return sign * 0.0;
    }
    if (scale == -323)
    {
        if (tiny_length == 0)
        {
            tiny_length = payhandoff_wasm_five_power(1075, tiny, sizeof(tiny));
        }
        return sign * ((payhandoff_wasm_compare(&digits, 0, tiny, tiny_length) <= 0) ? 0.0 : 0.5);
    }
    if (scale < 0)
    {
        return sign * 0.5;
    }

    for (i = 0; i < (int)scale; i++)
    {
        integer = integer * 10 + (uint64_t)payhandoff_wasm_digit(&digits, (size_t)i);
    }
    if (digits.count <= (size_t)scale)
    {
        /* No fraction. */
        return sign * ((integer <= PAYHANDOFF_WASM_MAX_INTEGER) ? (double)integer : HUGE_VAL);
    }
    if (integer > PAYHANDOFF_WASM_MAX_INTEGER)
    {
        return sign * HUGE_VAL;
    }
    if (integer >= (((uint64_t)1) << 52))
    {
        int comparison;
        threshold[0] = 5;
        comparison = payhandoff_wasm_compare(&digits, (size_t)scale, threshold, 1);
        if ((comparison > 0) || ((comparison == 0) && ((integer & 1) != 0)))
        {
            integer++;
        }
        return sign * ((integer <= PAYHANDOFF_WASM_MAX_INTEGER) ? (double)integer : HUGE_VAL);
    }
    /* p = 53 - k for I in [2^k, 2^(k+1)); for V < 1 (here V >= 0.1), p = 54. */
    precision = 54;
    if (integer != 0)
    {
        for (precision = 53; (integer >> (53 - precision)) > 1; precision--)
        {
        }
    }
    payhandoff_wasm_five_power((unsigned)precision, threshold, precision);
    if (payhandoff_wasm_compare(&digits, (size_t)scale, threshold, precision) <= 0)
    {
        return sign * (double)integer;
    }
    /* 1 - 2^-p = (10^p - 5^p) / 10^p: 9 - d for each of the p places, plus one in the last (5^p
     * ends in 5, so nothing carries). */
    for (i = 0; i < (int)precision; i++)
    {
        threshold[i] = (unsigned char)(9 - threshold[i]);
    }
    threshold[precision - 1]++;
    if (payhandoff_wasm_compare(&digits, (size_t)scale, threshold, precision) >= 0)
    {
        return sign * (double)(integer + 1);
    }
    return sign * ((double)integer + 0.5);
}

/* Writes the decimal digits of value backwards, ending just before `end`; returns the first. */
static char *payhandoff_wasm_decimal(uint64_t value, char *end)
{
    do
    {
        *--end = (char)('0' + (int)(value % 10));
        value /= 10;
    } while (value != 0);
    return end;
}

/* sprintf for the conversions cJSON uses: %d and %i of an int, %x of an unsigned int, with an
 * optional '0' flag and a width; %g of a double with a width and a precision (see the top of the
 * file for which doubles). Anything else returns -1 having written no more than the text before
 * it; like sprintf, the output ends with a NUL that the count leaves out. */
static int payhandoff_wasm_sprintf(char *out, const char *format, ...)
{
    va_list arguments;
    char *written = out;
    int result = 0;

    va_start(arguments, format);
    while (*format != '\0')
    {
        char buffer[32];
        char *start;
        char *stop = buffer + sizeof(buffer);
        char pad = ' ';
        size_t width = 0;
        size_t length;
        int precision = -1;
        int negative = 0;

        if (*format != '%')
        {
            *written++ = *format++;
            continue;
        }
        format++;
        if (*format == '0')
        {
            pad = '0';
            format++;
        }
        while ((*format >= '0') && (*format <= '9'))
        {
            width = width * 10 + (size_t)(*format++ - '0');
        }
        if (*format == '.')
        {
            precision = 0;
            for (format++; (*format >= '0') && (*format <= '9'); format++)
            {
                precision = precision * 10 + (*format - '0');
            }
        }
        switch (*format++)
        {
            case 'd':
            case 'i':
            {
                int value = va_arg(arguments, int);
                negative = value < 0;
                start = payhandoff_wasm_decimal(negative ? 0u - (unsigned)value : (unsigned)value, stop);
                break;
            }
            case 'x':
            {
                unsigned value = va_arg(arguments, unsigned);
                start = stop;
                do
                {
                    *--start = "0123456789abcdef"[value & 15u];
                    value >>= 4;
                } while (value != 0);
                break;
            }
            case 'g':
            {
                double value = va_arg(arguments, double);
                double magnitude;
                uint64_t integer;
                uint64_t power = 1;
                unsigned char sign_byte;
                int digits = 1;  /* of the integer */
                int exponent;    /* of the %e form */
                int place;

                /* The sign bit (of -0 too, which %g prints as "-0"); wasm32 and every platform
                 * the test runs on are little-endian. */
                memcpy(&sign_byte, (const unsigned char *)&value + sizeof(double) - 1, 1);
                negative = (sign_byte & 0x80) != 0;
                magnitude = negative ? -value : value;
                if (!(magnitude <= (double)PAYHANDOFF_WASM_MAX_INTEGER) || (magnitude != (double)(uint64_t)magnitude))
                {
                    result = -1; /* a fraction, NaN, an infinity or beyond the range: see the top of the file */
                    goto done;
                }
                integer = (uint64_t)magnitude;
                precision = (precision < 0) ? 6 : ((precision == 0) ? 1 : precision);
                for (power = 10; (digits < 20) && (integer >= power); power *= 10)
                {
                    digits++;
                }
                if (digits <= precision)
                {
                    /* Style f: the integer as it is (%g trims the fraction of zeros and its point). */
                    start = payhandoff_wasm_decimal(integer, stop);
                    break;
                }
                /* Round to `precision` significant digits, ties to even (as glibc and musl do);
                 * 999.. may carry into one digit more. */
                for (power = 1, place = precision; place < digits; place++)
                {
                    power *= 10;
                }
                exponent = digits - 1;
                {
                    uint64_t remainder = integer % power;
                    integer /= power;
                    if ((remainder > power / 2) || ((remainder == power / 2) && ((integer & 1) != 0)))
                    {
                        integer++;
                    }
                }
                for (power = 1, place = 0; place < precision; place++)
                {
                    power *= 10;
                }
                if (integer == power)
                {
                    integer /= 10;
                    exponent++;
                }
                /* Style e, as the exponent is at least the precision: d[.ddd]e+XX, the fraction
                 * trimmed of trailing zeros, the exponent in two digits at least. */
                digits = precision;
                while ((digits > 1) && (integer % 10 == 0))
                {
                    integer /= 10;
                    digits--;
                }
                start = payhandoff_wasm_decimal((uint64_t)exponent, stop);
                if (start == stop - 1)
                {
                    *--start = '0';
                }
                *--start = '+';
                *--start = 'e';
                for (place = 1; place < digits; place++)
                {
                    *--start = (char)('0' + (int)(integer % 10));
                    integer /= 10;
                }
                if (digits > 1)
                {
                    *--start = '.';
                }
                *--start = (char)('0' + (int)integer);
                break;
            }
            default:
                result = -1;
                goto done;
        }
        length = (size_t)(stop - start) + (negative ? 1u : 0u);
        if ((pad == ' ') && (length < width))
        {
            memset(written, ' ', width - length);
            written += width - length;
        }
        if (negative)
        {
            *written++ = '-';
        }
        if ((pad == '0') && (length < width))
        {
            memset(written, '0', width - length);
            written += width - length;
        }
        memcpy(written, start, (size_t)(stop - start));
        written += stop - start;
    }
    result = (int)(written - out);
done:
    va_end(arguments);
    *written = '\0';
    return result;
}

/* sscanf for cJSON's one format, "%lg" (a double*): white space skipped, then a number read as
 * payhandoff_wasm_strtod reads it. It reads back exactly the integers the sprintf above writes,
 * which is all print_number gives it. Returns 1, 0 when no number starts there, EOF at the end
 * of the text, and -1 for any other format. */
static int payhandoff_wasm_sscanf(const char *text, const char *format, ...)
{
    va_list arguments;
    char *end;
    double value;
    int result = 1;

    if ((format[0] != '%') || (format[1] != 'l') || (format[2] != 'g') || (format[3] != '\0'))
    {
        return -1;
    }
    while ((*text == ' ') || ((*text >= '\t') && (*text <= '\r')))
    {
        text++;
    }
    value = payhandoff_wasm_strtod(text, &end);
    if (end == text)
    {
        return (*text == '\0') ? EOF : 0;
    }
    va_start(arguments, format);
    *va_arg(arguments, double *) = value;
    va_end(arguments);
    return result;
}

/* The libc headers are in (above, and again in cJSON.c, where their guards skip them), so these
 * names now only reach cJSON's calls. */
#define strtod payhandoff_wasm_strtod
#define sprintf payhandoff_wasm_sprintf
#define sscanf payhandoff_wasm_sscanf

#include "../../../third_party/cjson/cJSON.c"

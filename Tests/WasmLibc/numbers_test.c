/* make web-libc-test: the number functions the WebAssembly module's cJSON uses in place of libc's
 * (bindings/web/wasm/payhandoff_wasm_cjson.c, included here with cJSON) against the platform's
 * own strtod, sprintf and sscanf: glibc when built natively, wasi-libc (the very functions the
 * module no longer links) when built for wasm32-wasi and run under Node.
 *
 *   strtod   for every text: the same end, and a double the C ABI's reader accepts exactly when
 *            it accepts the platform's (an integer within +-(2^53 - 1)), then the same bits.
 *            Texts: edge cases, then generated ones (integers with fractions at and around the
 *            rounding thresholds of every binade, ties, the thresholds near 1 and 2^-1075, the
 *            decimal point moved with the exponent to match, long digit strings, and random
 *            strings of the characters cJSON hands to strtod).
 *   sprintf  every format cJSON uses, same text and count; -1 where ours refuses.
 *   sscanf   "%lg" of what sprintf writes.
 *   cJSON    through this file's cJSON: the version, a control character escaped, numbers
 *            printed as cJSON prints them with the platform's printf.
 * Prints one line per part and "web-libc: N checks, M failed"; exits 1 on any failure.
 */
#include "../../bindings/web/wasm/payhandoff_wasm_cjson.c"

#undef strtod
#undef sprintf
#undef sscanf

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long checks = 0;
static unsigned long failures = 0;

static void check(int ok, const char *what, const char *text)
{
    checks++;
    if (!ok)
    {
        failures++;
        if (failures <= 30)
        {
            printf("FAIL: %s: \"%.200s\"%s\n", what, text, strlen(text) > 200 ? "..." : "");
        }
    }
}

/* The C ABI reader's rule (JSONText+Reader.swift): an integer within +-(2^53 - 1). */
static int accepted(double value)
{
    return value >= -9007199254740991.0 && value <= 9007199254740991.0 && (double)(long long)value == value;
}

static unsigned long strtod_texts = 0;
static unsigned long strtod_accepted = 0;

static void check_strtod(const char *text)
{
    char *ours_end = NULL;
    char *platform_end = NULL;
    double ours = payhandoff_wasm_strtod(text, &ours_end);
    double platform = strtod(text, &platform_end);
    strtod_texts++;
    check(ours_end == platform_end, "strtod: end", text);
    check(accepted(ours) == accepted(platform), "strtod: accepted", text);
    if (accepted(platform))
    {
        strtod_accepted++;
        check(memcmp(&ours, &platform, sizeof ours) == 0, "strtod: value", text);
    }
}

/* A tiny random generator (xorshift64*), the same sequence on every platform. */
static unsigned long long state = 0x9E3779B97F4A7C15ull;
static unsigned long long next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
}
static unsigned below(unsigned n) { return (unsigned)(next() % n); }

/* Decimal digits, most significant first, as a NUL-terminated string in a growing buffer. */
typedef struct
{
    char *text;
    size_t length;
} digits_t;

/* The exact decimal digits of m * 5^q (so m * 2^-q = that / 10^q). */
static digits_t dyadic_digits(unsigned long long m, unsigned q)
{
    size_t capacity = 40 + q;
    unsigned char *little = calloc(capacity, 1);
    size_t length = 0;
    digits_t result;
    size_t i;
    do
    {
        little[length++] = (unsigned char)(m % 10);
        m /= 10;
    } while (m != 0);
    while (q-- > 0)
    {
        unsigned carry = 0;
        for (i = 0; i < length; i++)
        {
            unsigned product = little[i] * 5u + carry;
            little[i] = (unsigned char)(product % 10);
            carry = product / 10;
        }
        while (carry != 0)
        {
            little[length++] = (unsigned char)(carry % 10);
            carry /= 10;
        }
    }
    result.text = malloc(length + 1);
    for (i = 0; i < length; i++)
    {
        result.text[i] = (char)('0' + little[length - 1 - i]);
    }
    result.text[length] = '\0';
    result.length = length;
    free(little);
    return result;
}

/* Adds delta (-1 or +1) to the last digit of a digit string (with borrow/carry); keeps it non-empty. */
static void nudge(char *digits, int delta)
{
    size_t i = strlen(digits);
    while (i-- > 0)
    {
        int d = digits[i] - '0' + delta;
        if (d >= 0 && d <= 9)
        {
            digits[i] = (char)('0' + d);
            return;
        }
        digits[i] = delta > 0 ? '0' : '9';
    }
}

/* Writes sign, integer part `whole` (digits) and fraction `fraction` (digits) as a number text,
 * with the decimal point moved `shift` places (negative: left) and the exponent compensating. */
static void emit(int negative, const char *whole, const char *fraction, int shift, const char *tail)
{
    size_t wl = strlen(whole), fl = strlen(fraction);
    char *all = malloc(wl + fl + 1);
    char *text = malloc(wl + fl + (size_t)(shift < 0 ? -shift : shift) + 64);
    long point; /* where the point goes in `all`, may be outside it */
    char *at = text;
    long i;
    memcpy(all, whole, wl);
    memcpy(all + wl, fraction, fl);
    all[wl + fl] = '\0';
    point = (long)wl + shift;
    if (negative)
    {
        *at++ = '-';
    }
    if (point <= 0)
    {
        *at++ = '0';
        *at++ = '.';
        for (i = point; i < 0; i++)
        {
            *at++ = '0';
        }
        memcpy(at, all, wl + fl);
        at += wl + fl;
    }
    else if (point >= (long)(wl + fl))
    {
        memcpy(at, all, wl + fl);
        at += wl + fl;
        for (i = (long)(wl + fl); i < point; i++)
        {
            *at++ = '0';
        }
    }
    else
    {
        memcpy(at, all, (size_t)point);
        at += point;
        *at++ = '.';
        memcpy(at, all + point, wl + fl - (size_t)point);
        at += wl + fl - (size_t)point;
    }
    at += sprintf(at, "e%d%s", -shift, tail);
    check_strtod(text);
    free(all);
    free(text);
}

/* I + F where F = m * 2^-q exactly, and its neighbours one unit in the last place away, written
 * plainly and with the point moved. */
static void around(unsigned long long integer, unsigned long long m, unsigned q)
{
    char whole[32];
    digits_t f = dyadic_digits(m, q);
    /* f.text holds m * 5^q; as a fraction of q places it needs q - length leading zeros. */
    size_t places = q;
    char *fraction = malloc(places + 8);
    int delta;
    int negative = (int)below(2);
    int shift = (int)below(41) - 20;
    snprintf(whole, sizeof whole, "%llu", integer);
    if (f.length > places)
    {
        free(f.text);
        free(fraction);
        return; /* m >= 2^q: not a fraction */
    }
    memset(fraction, '0', places - f.length);
    memcpy(fraction + places - f.length, f.text, f.length + 1);
    emit(negative, whole, fraction, 0, "");
    emit(negative, whole, fraction, shift, "");
    for (delta = -1; delta <= 1; delta += 2)
    {
        char *moved = malloc(places + 32);
        strcpy(moved, fraction);
        nudge(moved, delta);
        emit(negative, whole, moved, shift, "");
        strcat(moved, "00000000001");
        emit(negative, whole, moved, 0, "");
        free(moved);
    }
    free(f.text);
    free(fraction);
}

static void test_strtod(void)
{
    static const char *const fixed[] = {
        "0", "-0", "0.0", "-0.0", "00", "000.000e5", "1", "-1", "1.0", "1e3", "1E3", "1e+3", "1.5e1", "-1.5e1",
        "1e-400", "-1e-400", "1e-324", "2e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "3e-324", "5e-324", "1e-323", "1e-322", "1e400", "-1e400", "1e16", "1e15", "9e15",
        "1.00000000000000001", "0.99999999999999994", "0.99999999999999995", "0.9999999999999999",
        "0.999999999999999944488848768742172978818416595458984375",
        "0.999999999999999944488848768742172978818416595458984374",
        "0.999999999999999944488848768742172978818416595458984375000000001",
        "0.999999999999999944488848768742172978818416595458984376",
        "4503599627370496.5", "4503599627370497.5", "4503599627370495.5", "4503599627370495.75",
        "4503599627370495.25", "4503599627370495.2500000001",
        "9007199254740991", "-9007199254740991", "9007199254740992", "9007199254740993",
        "9007199254740991.4999999", "9007199254740991.5", "9007199254740990.5", "9007199254740991.6",
        "9007199254740990.50000000000000000000001", "90071992547409915e-1", "900719925474099.15e1",
        "1.5", "0.5", ".5", "-.5", "5.", "-5.", "1.e5", "1e", "1e+", "1e-", "1E-x", "-", "--1", "-+1", "+1",
        ".", "-.", "-.e5", "..1", "1..2", "1.2.3", "1e5e3", "1-2", "1+2", "00012", "0.000", "-0e-0",
        "0e999999999999999999999999", "1e-99999999999999999999999", "1e99999999999999999999999",
        "123456789012345678901234567890e-14", "12345678901234567890e-4", "1234567890123456e0",
        "0.0000000000000000000000000000000000000001e40", "100000000000000000000000000000000e-32",
        "1e0000000000000000000000000000000000000000000000000001", "1e-0000000000000000000000000000003",
    };
    size_t i;
    unsigned long long m;
    unsigned k, q, round;
    char *text;

    for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    {
        check_strtod(fixed[i]);
    }

    /* Long texts: 1 followed by many zeros (with the point, exponents that cancel), many digits. */
    text = malloc(200100);
    text[0] = '1';
    memset(text + 1, '0', 100000);
    strcpy(text + 100001, "e-100000");
    check_strtod(text);
    strcpy(text + 100001, "e-99999");
    check_strtod(text);
    strcpy(text + 100001, ".0000000000000000000000001e-100000");
    check_strtod(text);
    strcpy(text + 100001, "1e-100001");
    check_strtod(text);
    memcpy(text, "0.", 2);
    memset(text + 2, '0', 100000);
    strcpy(text + 100002, "7e100003");
    check_strtod(text);
    strcpy(text + 100002, "7e100002");
    check_strtod(text);
    /* 4503599627370495.5 then a long tail: a tie broken only by the last digit. */
    strcpy(text, "4503599627370495.5");
    memset(text + 18, '0', 100000);
    strcpy(text + 100018, "1");
    check_strtod(text);
    text[100018] = '\0';
    check_strtod(text);
    for (i = 0; i < 2000; i++)
    {
        text[i] = (char)('0' + below(10));
    }
    text[0] = '1';
    strcpy(text + 2000, "e-1990");
    check_strtod(text);
    strcpy(text + 2000, "e-1984");
    check_strtod(text);
    free(text);

    /* 2^-1075 and 2^-1074 exactly, and their neighbours. */
    for (q = 1074; q <= 1075; q++)
    {
        digits_t d = dyadic_digits(1, q);
        char *buffer = malloc(d.length + 64);
        for (round = 0; round < 4; round++)
        {
            strcpy(buffer, d.text);
            if (round == 1) nudge(buffer, -1);
            if (round == 2) nudge(buffer, +1);
            if (round == 3) strcat(buffer, "000000000000000000001");
            sprintf(buffer + strlen(buffer), "e-%u", q);
            check_strtod(buffer);
        }
        free(d.text);
        free(buffer);
    }

    /* Every binade: integers at its ends and random ones, with fractions at the rounding
     * thresholds 2^-(53-k) and 1 - 2^-(53-k), at 1/2, and random dyadic ones. */
    for (k = 0; k <= 53; k++)
    {
        unsigned long long low = 1ull << k;
        unsigned long long candidates[5];
        unsigned c;
        unsigned p = k <= 52 ? 53 - k : 1;
        candidates[0] = low;
        candidates[1] = (low << 1) - 1;
        candidates[2] = low + (next() % low);
        candidates[3] = low + (next() % low);
        candidates[4] = k == 0 ? 0 : low - 1;
        for (c = 0; c < 5; c++)
        {
            unsigned long long integer = candidates[c];
            around(integer, 1, p);                          /* 2^-p */
            around(integer, (1ull << p) - 1, p);            /* 1 - 2^-p */
            around(integer, 1, 1);                          /* 1/2 */
            around(integer, 1, p + 1);                      /* 2^-(p+1) */
            around(integer, 3, p + 1);                      /* 3 * 2^-(p+1) */
            around(integer, (1ull << (p + 1)) - 1, p + 1);  /* 1 - 2^-(p+1) */
            if (p > 1)
            {
                around(integer, 1, p - 1);
                around(integer, (1ull << (p - 1)) - 1, p - 1);
            }
            m = next() & ((1ull << (p < 60 ? p + 3 : 60)) - 1);
            around(integer, m | 1, p < 60 ? p + 3 : 60);
        }
    }
    around(0, 1, 54);                                       /* near 1: 1 - 2^-54 is its threshold */
    around(0, (1ull << 54) - 1, 54);
    around(0, (1ull << 53) - 1, 53);
    around(0, (1ull << 55) - 1, 55);

    /* Random decimal numbers: digits, a point somewhere, an exponent. */
    for (i = 0; i < 20000; i++)
    {
        char buffer[1200];
        char *at = buffer;
        unsigned count = below(8) == 0 ? 1 + below(800) : 1 + below(25);
        unsigned point = below(count + 2);
        unsigned j;
        if (below(2)) *at++ = '-';
        for (j = 0; j < count; j++)
        {
            if (j == point) *at++ = '.';
            *at++ = (char)('0' + (below(4) == 0 ? 0 : below(10)));
        }
        if (below(3) != 0)
        {
            at += sprintf(at, "e%d", (int)below(700) - 380);
        }
        *at = '\0';
        check_strtod(buffer);
    }

    /* Random strings of the characters parse_number copies (starting as cJSON's numbers do). */
    for (i = 0; i < 20000; i++)
    {
        static const char alphabet[] = "0123456789+-eE.";
        char buffer[24];
        unsigned length = 1 + below(20);
        unsigned j;
        buffer[0] = below(3) == 0 ? '-' : (char)('0' + below(10));
        for (j = 1; j < length; j++)
        {
            buffer[j] = below(2) ? (char)('0' + below(10)) : alphabet[below(sizeof alphabet - 1)];
        }
        buffer[length] = '\0';
        check_strtod(buffer);
    }
    printf("web-libc: strtod: %lu texts (%lu accepted as integers by the platform's strtod)\n", strtod_texts, strtod_accepted);
}

static unsigned long sprintf_cases = 0;

static void check_sprintf_int(const char *format, int a, int b, int c)
{
    char ours[64], platform[64];
    int n = payhandoff_wasm_sprintf(ours, format, a, b, c);
    int m = sprintf(platform, format, a, b, c);
    sprintf_cases++;
    check(n == m && strcmp(ours, platform) == 0, "sprintf", platform);
}

/* Integral doubles within +-(2^53 - 1): the platform's text; others: -1. */
static void check_sprintf_double(const char *format, double value)
{
    char ours[64], platform[64];
    int n = payhandoff_wasm_sprintf(ours, format, value);
    int m = sprintf(platform, format, value);
    sprintf_cases++;
    if (accepted(value))
    {
        check(n == m && strcmp(ours, platform) == 0, format, platform);
    }
    else
    {
        check(n == -1, "sprintf refuses a number it cannot print exactly", platform);
    }
}

static void test_sprintf(void)
{
    static const char *const formats[] = {"%1.15g", "%1.17g", "%g", "%.1g", "%.3g", "%.10g", "%.16g", "%3.2g", "%020.15g"};
    static const double odd[] = {0.5, -0.5, 1.5, 1e-300, 4503599627370495.5, 9007199254740992.0, 1e300, -1e17};
    char ours[64];
    unsigned i, f;
    double value;
    int special;

    for (i = 0; i < 256; i++)
    {
        check_sprintf_int("u%04x", (int)i, 0, 0); /* cJSON passes an unsigned char */
    }
    check_sprintf_int("%i.%i.%i", CJSON_VERSION_MAJOR, CJSON_VERSION_MINOR, CJSON_VERSION_PATCH);
    check_sprintf_int("%i.%i.%i", -1, INT_MAX, INT_MIN);
    check_sprintf_int("%d and %d", 0, -42, 0);
    check_sprintf_int("null", 0, 0, 0);
    check_sprintf_int("%5d|%05d", -42, 42, 0);
    check_sprintf_int("%x %08x", 0x7fffffff, 255, 0);

    for (f = 0; f < sizeof formats / sizeof formats[0]; f++)
    {
        double powers = 1;
        check_sprintf_double(formats[f], 0.0);
        check_sprintf_double(formats[f], -0.0);
        check_sprintf_double(formats[f], 9007199254740991.0);
        check_sprintf_double(formats[f], -9007199254740991.0);
        for (i = 0; i < 17; i++, powers *= 10)
        {
            check_sprintf_double(formats[f], powers);
            check_sprintf_double(formats[f], powers - 1);
            check_sprintf_double(formats[f], -(powers + 1));
            check_sprintf_double(formats[f], powers * 5 + 5);   /* ties at every precision */
            check_sprintf_double(formats[f], powers * 5 - 5);
            check_sprintf_double(formats[f], powers * 15);
            check_sprintf_double(formats[f], powers * 25);
        }
        for (i = 0; i < 3000; i++)
        {
            unsigned long long bits = next() >> (11 + below(53));
            value = (double)bits;
            check_sprintf_double(formats[f], below(2) ? -value : value);
        }
        for (i = 0; i < sizeof odd / sizeof odd[0]; i++)
        {
            check_sprintf_double(formats[f], odd[i]);
        }
    }
    special = payhandoff_wasm_sprintf(ours, "%1.15g", HUGE_VAL);
    check(special == -1, "sprintf refuses infinity", "%1.15g");
    special = payhandoff_wasm_sprintf(ours, "%s", "text");
    check(special == -1, "sprintf refuses a format it does not know", "%s");
    printf("web-libc: sprintf: %lu formats and values\n", sprintf_cases);
}

static void test_sscanf(void)
{
    static const char *const texts[] = {"0", "-0", "42", "  17", "9007199254740991", "-9007199254740991",
                                        "9.00719925474099e+15", "1e+15", "1.23456789012345e+16", "", "   ", "x", "-"};
    size_t i;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++)
    {
        double ours = 1234.0, platform = 1234.0;
        int n = payhandoff_wasm_sscanf(texts[i], "%lg", &ours);
        int m = sscanf(texts[i], "%lg", &platform);
        check(n == m, "sscanf: count", texts[i]);
        check(accepted(ours) == accepted(platform), "sscanf: accepted", texts[i]);
        if (n == 1 && accepted(platform))
        {
            check(memcmp(&ours, &platform, sizeof ours) == 0, "sscanf: value", texts[i]);
        }
    }
    printf("web-libc: sscanf: %u texts\n", (unsigned)(sizeof texts / sizeof texts[0]));
}

/* cJSON's print_number with the platform's sprintf and sscanf (third_party/cjson/cJSON.c). */
static void platform_print_number(double d, char *out)
{
    double test = 0.0;
    if (d != d || d - d != 0)
    {
        sprintf(out, "null");
        return;
    }
    sprintf(out, "%1.15g", d);
    if (sscanf(out, "%lg", &test) != 1 || !compare_double(test, d))
    {
        sprintf(out, "%1.17g", d);
    }
}

static void test_cjson(void)
{
    static const double numbers[] = {0, -0.0, 1, -1, 42, 999999999999999.0, 1e15, 1000000000000005.0, 1000000000000015.0,
                                     4503599627370497.0, 9007199254740991.0, -9007199254740991.0, 9007199254740990.0,
                                     9007199254740985.0, 123456789012345678.0 / 100};
    cJSON *parsed;
    char *printed;
    size_t i;
    char expected[64];

    snprintf(expected, sizeof expected, "%i.%i.%i", CJSON_VERSION_MAJOR, CJSON_VERSION_MINOR, CJSON_VERSION_PATCH);
    check(strcmp(cJSON_Version(), expected) == 0, "cJSON_Version", cJSON_Version());

    /* cJSON here reads through payhandoff_wasm_strtod: 1.25 comes back as the stand-in 1.5. */
    parsed = cJSON_Parse("[1.25, 12, \"\\u0001x\\u001f\"]");
    check(parsed != NULL && cJSON_GetArrayItem(parsed, 0)->valuedouble == 1.5, "cJSON reads numbers through ours", "1.25");
    check(parsed != NULL && cJSON_GetArrayItem(parsed, 1)->valuedouble == 12, "cJSON reads 12", "12");
    printed = parsed != NULL ? cJSON_PrintUnformatted(cJSON_GetArrayItem(parsed, 2)) : NULL;
    check(printed != NULL && strcmp(printed, "\"\\u0001x\\u001f\"") == 0, "cJSON escapes control characters", printed ? printed : "(null)");
    free(printed);
    cJSON_Delete(parsed);
    parsed = cJSON_Parse("[1e5e3]");
    check(parsed == NULL, "cJSON refuses what follows the number strtod read", "[1e5e3]");

    for (i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
    {
        cJSON *number = cJSON_CreateNumber(numbers[i]);
        printed = cJSON_PrintUnformatted(number);
        if (accepted(numbers[i]))
        {
            platform_print_number(numbers[i], expected);
            check(printed != NULL && strcmp(printed, expected) == 0, "cJSON prints an integer as with the platform's printf", expected);
        }
        else
        {
            check(printed == NULL, "cJSON fails to print a fraction", "1234567890123456.78");
        }
        free(printed);
        cJSON_Delete(number);
    }
    printf("web-libc: cJSON: the version, escapes, %u numbers printed\n", (unsigned)(sizeof numbers / sizeof numbers[0]));
}

int main(void)
{
    test_strtod();
    test_sprintf();
    test_sscanf();
    test_cjson();
    printf("web-libc: %lu checks, %lu failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

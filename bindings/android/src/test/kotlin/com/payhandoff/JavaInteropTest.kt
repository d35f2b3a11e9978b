package com.payhandoff

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.lang.reflect.Method
import java.lang.reflect.Modifier
import java.util.jar.JarFile

/**
 * Java callers need no `INSTANCE`, no `Companion` and no all-arguments call (issue 36): read from
 * the AAR's classes.jar, every public function of a public `object` or companion has a static
 * twin (`@JvmStatic`), and every public constructor or function with Kotlin default arguments has
 * shorter overloads (`@JvmOverloads`; a data class's `copy` is Kotlin's own and left out). The
 * README's Java Activity is compiled against the same classes by `make consumer-check`.
 */
class JavaInteropTest {
    /** The binding's `internal` classes (public in bytecode). */
    private val internal = setOf("Call", "CallKt", "Redact", "Words", "Native", "Versions")

    /** Classes whose companion is `internal` or `private` (public in bytecode too), read from the
     *  Kotlin sources: the nearest enclosing class of each such companion. */
    private val hiddenCompanions: Set<String> by lazy {
        val sources = File(TestJson.vectorsDir, "../../bindings/android/src/main/kotlin/com/payhandoff")
        val declaration = Regex("^\\s*(?:[a-z]+ )*(?:class|object) ([A-Z]\\w*)")
        val hidden = Regex("^\\s*(internal|private) companion object")
        val found = HashSet<String>()
        for (file in sources.listFiles { f -> f.name.endsWith(".kt") }!!) {
            val enclosing = ArrayList<Pair<Int, String>>()
            for (line in file.readLines()) {
                val indent = line.length - line.trimStart().length
                if (hidden.containsMatchIn(line)) {
                    enclosing.lastOrNull { it.first < indent }?.let { found.add(it.second) }
                    continue
                }
                declaration.find(line)?.let { m ->
                    enclosing.removeAll { it.first >= indent }
                    enclosing.add(indent to m.groupValues[1])
                }
            }
        }
        assertTrue("no internal companion found in $sources", found.isNotEmpty())
        found
    }

    private fun apiClasses(): List<Class<*>> {
        val jar = File(PayHandoff::class.java.protectionDomain.codeSource.location.toURI())
        val names = JarFile(jar).use { file -> file.entries().toList().map { it.name } }
        val found = names.filter { it.startsWith("com/payhandoff/") && it.endsWith(".class") }
            .map { Class.forName(it.removeSuffix(".class").replace('/', '.'), false, javaClass.classLoader) }
        for (name in internal) assertTrue("$name is no longer in classes.jar: update the list", found.any { it.simpleName == name })
        return found.filter {
            Modifier.isPublic(it.modifiers) && !it.isSynthetic && it.name.substringAfterLast('.').substringBefore('$') !in internal
        }
    }

    private fun Method.isApi() = Modifier.isPublic(modifiers) && !isSynthetic && !isBridge && !name.contains('$')
    private fun Class<*>.hasStatic(m: Method) = declaredMethods.any {
        Modifier.isStatic(it.modifiers) && Modifier.isPublic(it.modifiers) && it.name == m.name && it.parameterTypes.contentEquals(m.parameterTypes)
    }

    @Test
    fun objectsAndCompanionsAreStaticForJava() {
        val missing = ArrayList<String>()
        var checked = 0
        for (cls in apiClasses()) {
            val instance = cls.declaredFields.firstOrNull { it.name == "INSTANCE" && Modifier.isStatic(it.modifiers) && it.type == cls }
            if (instance != null && Modifier.isPublic(instance.modifiers)) {
                for (m in cls.declaredMethods.filter { it.isApi() && !Modifier.isStatic(it.modifiers) }) {
                    checked++
                    if (!cls.hasStatic(m)) missing.add("${cls.name}.${m.name}: call it as ${cls.simpleName}.INSTANCE.${m.name}(…) from Java")
                }
            }
            val companion = cls.declaredFields.firstOrNull { it.name == "Companion" && Modifier.isStatic(it.modifiers) }
            if (companion != null && Modifier.isPublic(companion.modifiers) && cls.simpleName !in hiddenCompanions) {
                for (m in companion.type.declaredMethods.filter { it.isApi() && !Modifier.isStatic(it.modifiers) }) {
                    checked++
                    if (!cls.hasStatic(m)) missing.add("${cls.name}.Companion.${m.name}: needs @JvmStatic")
                }
            }
        }
        assertEquals(emptyList<String>(), missing)
        assertTrue("only $checked functions checked", checked >= 20)
    }

    @Test
    fun defaultArgumentsHaveJavaOverloads() {
        val missing = ArrayList<String>()
        var checked = 0
        val marker = "kotlin.jvm.internal.DefaultConstructorMarker"
        for (cls in apiClasses()) {
            // A constructor with defaults: Kotlin adds a synthetic one ending (int mask, marker).
            for (synthetic in cls.declaredConstructors) {
                val p = synthetic.parameterTypes
                if (p.size < 2 || p.last().name != marker || p[p.size - 2] != Int::class.javaPrimitiveType) continue
                val full = p.copyOfRange(0, p.size - 2)
                val primary = cls.declaredConstructors.firstOrNull { it.parameterTypes.contentEquals(full) } ?: continue
                if (!Modifier.isPublic(primary.modifiers)) continue
                checked++
                if (cls.constructors.none { it.parameterCount < full.size && !it.isSynthetic }) {
                    missing.add("new ${cls.name}(…) has defaults: needs @JvmOverloads")
                }
            }
            // A function with defaults: a static synthetic `name$default` (the owner first for a member).
            for (synthetic in cls.declaredMethods.filter { it.name.endsWith("\$default") && it.isSynthetic }) {
                val name = synthetic.name.removeSuffix("\$default")
                if (name == "copy") continue
                val api = cls.declaredMethods.filter { it.name == name && it.isApi() }
                if (api.isEmpty()) continue
                checked++
                val longest = api.maxBy { it.parameterCount }!!
                if (api.none { it.parameterCount < longest.parameterCount }) missing.add("${cls.name}.$name has defaults: needs @JvmOverloads")
            }
        }
        assertEquals(emptyList<String>(), missing)
        assertTrue("only $checked checked", checked >= 10)
    }
}

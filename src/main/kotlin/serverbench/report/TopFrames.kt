package serverbench.report

import serverbench.params.ParamNames
import serverbench.profile.ProfileLayout
import java.io.File
import java.util.Locale

/** A frame's share of a profile: its samples and their percent of all the profile's samples. */
data class Frame(val name: String, val samples: Long, val percent: Double)

/**
 * Where a run's time went, from its collapsed stacks (`frame;frame;...;leaf count` per line; the files of several
 * forks add up): the top frames by self time (the frame was the leaf, running its own code) and by total time (the
 * frame was on the stack, counted once per stack however often recursion repeats it), in % of all samples.
 *
 * By default the total list leaves out pass-through frames, those that hand at least [PASS_THROUGH] of their time to
 * one callee: every stack starts with the same thread-start and event-loop frames at nearly 100 %, so a plain top 5
 * by total time would list only them; the callee stands for such a frame, and the list shows where the time divides.
 */
data class TopFrames(
    val self: List<Frame>,
    val total: List<Frame>,
    val samples: Long,
    /** The frames of a user's code (under [ownCode]'s package) by total time, pass-through or not. */
    val own: List<Frame> = emptyList(),
) {
    companion object {
        const val PASS_THROUGH = 0.95

        /**
         * The package of a user's family's code, as frames name it (`com/example/`): the first two parts of its
         * benchmark class's package (the service's code is seldom in the benchmark's own package); null for a
         * built-in family.
         */
        fun ownCode(benchmark: String): String? {
            val parts = benchmark.substringBeforeLast('.').substringBeforeLast('.').split('.')
            if (parts.firstOrNull() == "serverbench" || parts.size < 2) return null
            return parts.take(2).joinToString("/", postfix = "/")
        }

        /** Frame names are [normalize]d; the event (`alloc` or another) is read from the files' names. */
        fun of(files: List<File>, n: Int = 5, collapse: Boolean = true, ownPrefix: String? = null): TopFrames {
            val alloc = files.any { ProfileLayout.event(it) == "alloc" }
            val lines = files.asSequence().flatMap { f -> f.bufferedReader().use { it.readLines() } }
            return of(lines, n, alloc, collapse, ownPrefix)
        }

        fun of(
            lines: Sequence<String>,
            n: Int = 5,
            alloc: Boolean = false,
            collapse: Boolean = true,
            ownPrefix: String? = null,
        ): TopFrames {
            val self = HashMap<String, Long>()
            val total = HashMap<String, Long>()
            // Samples in which a frame called another, once per stack: how much of a frame's time one callee takes.
            val calls = HashMap<Pair<String, String>, Long>()
            var all = 0L
            for (line in lines) {
                val space = line.lastIndexOf(' ')
                val count = line.substring(space + 1).trim().toLongOrNull() ?: continue
                if (space <= 0 || count <= 0) continue
                val stack = line.substring(0, space).split(';').map { normalize(it, alloc) }
                all += count
                self.merge(stack.last(), count, Long::plus)
                stack.toSet().forEach { total.merge(it, count, Long::plus) }
                stack.zipWithNext().filter { it.first != it.second }.toSet()
                    .forEach { calls.merge(it, count, Long::plus) }
            }
            val passing = if (!collapse) {
                emptySet()
            } else {
                val widest = HashMap<String, Long>()
                calls.forEach { (call, samples) -> widest.merge(call.first, samples, ::maxOf) }
                widest.filter { (frame, samples) -> samples >= PASS_THROUGH * total.getValue(frame) }.keys
            }
            fun top(counts: Map<String, Long>) = rank(counts.filterKeys { it !in passing }, n, all)
            val own = ownPrefix?.let { p -> rank(total.filterKeys { it.startsWith(p) }, n, all) }.orEmpty()
            return TopFrames(top(self), top(total), all, own)
        }

        /** The [n] largest [counts], in % of [all] samples; ties by name. */
        private fun rank(counts: Map<String, Long>, n: Int, all: Long): List<Frame> = counts.entries
            .sortedWith(compareByDescending<Map.Entry<String, Long>> { it.value }.thenBy { it.key }).take(n)
            .map { Frame(it.key, it.value, 100.0 * it.value / all) }

        private val JIT_STATE = Regex("_\\[[j01i]]$")
        private val LAMBDA = Regex("[$][$]Lambda[$]\\d+")
        private val HIDDEN = Regex("[/.]0x[0-9a-fA-F]+")

        /**
         * One name per method: async-profiler's annotations of how a frame ran (`_[j]` compiled, `_[i]` inlined, `_[0]`
         * interpreted, `_[1]` C1) dropped, and the JVM's numbers in hidden classes' names (lambdas, method handles),
         * which differ between forks. `_[k]` stays where it marks kernel code; in allocation profiles it marks an
         * allocation outside a TLAB, and is dropped too: the allocated type is what matters there.
         */
        fun normalize(raw: String, alloc: Boolean = false): String {
            val s = raw.replace(JIT_STATE, "").let { if (alloc) it.removeSuffix("_[k]") else it }
            return s.replace(LAMBDA) { "\$\$Lambda" }.replace(HIDDEN, "")
        }

        private val DOTTED_CLASS = Regex("([a-z_][\\w]*\\.)+[A-Z][\\w$]*(\\[])*")
        private val TEMPLATE = Regex("<[^<>]*>")
        private const val WIDTH = 70

        /**
         * A [normalize]d name as a reviewer reads it: Java frames as `Class.method` (package dropped), allocated types
         * by their simple name, C++ frames as `Class::method` (namespaces and template arguments dropped), kernel
         * frames marked `(kernel)`, anything longer than [WIDTH] characters cut.
         */
        fun short(name: String): String {
            val kernel = name.endsWith("_[k]")
            var s = name.removeSuffix("_[k]")
            val slash = s.lastIndexOf('/')
            val dot = s.lastIndexOf('.')
            s = when {
                "::" in s -> {
                    var t = s
                    while (TEMPLATE.containsMatchIn(t)) t = t.replace(TEMPLATE, "")
                    t.split("::").takeLast(2).joinToString("::")
                }

                slash >= 0 && dot > slash && ' ' !in s -> s.substring(slash + 1)

                DOTTED_CLASS.matches(s) -> s.substringAfterLast('.')

                else -> s
            }
            if (s.length > WIDTH) s = s.take(WIDTH - 1) + "…"
            return if (kernel) "$s (kernel)" else s
        }

        /**
         * `### Where the time went (<event> samples)` with a small table per profiled row (top 5 by self and by total
         * time, side by side), for the rows of one family; empty when none of them was profiled. [ownPrefix], when
         * given, is the user's code for every row (a served jar's package, which a built-in benchmark's name cannot
         * tell); otherwise each row's own [ownCode].
         */
        fun markdown(runs: List<BenchmarkResult>, ownPrefix: String? = null): String {
            val profiles = runs.sortedWith(ROWS).flatMap { run ->
                run.profiles.filter { it.extension == "collapsed" && it.isFile }.groupBy(ProfileLayout::event)
                    .map { (event, files) -> Triple(event, run, files) }
            }
            if (profiles.isEmpty()) return ""
            val out = StringBuilder()
            for ((event, rows) in profiles.groupBy { it.first }.toSortedMap()) {
                out.append("\n### Where the time went ($event samples)\n\n")
                out.append(
                    "Top frames of each profiled row in % of its samples: self = running its own code, " +
                        "total = on the stack (frames that pass ${(PASS_THROUGH * 100).toInt()} % or more of their " +
                        "time to one callee left out: the callee stands for them).\n",
                )
                for ((_, run, files) in rows) {
                    val label = listOf(run.variant, ProfileLayout.label(run.params)).filter { it.isNotEmpty() }
                    out.append(block(files, label.joinToString(" · "), ownPrefix ?: ownCode(run.benchmark)))
                }
            }
            return out.toString()
        }

        /**
         * One profile's table ([files] summed): `**heading**: N samples`, its top 5 frames by self and by total time
         * side by side, and the frames of the user's code when [prefix] names its package.
         */
        fun block(files: List<File>, heading: String, prefix: String?): String {
            val top = of(files, ownPrefix = prefix)
            val out = StringBuilder()
            out.append("\n**$heading**: ${String.format(Locale.ROOT, "%,d", top.samples)} samples\n\n")
            if (top.samples == 0L) return out.toString()
            out.append("| self % | frame | total % | frame |\n| ---: | --- | ---: | --- |\n")
            for (i in 0 until maxOf(top.self.size, top.total.size)) {
                val cells = listOf(top.self.getOrNull(i), top.total.getOrNull(i)).flatMap { f ->
                    if (f == null) listOf("", "") else listOf(percent(f.percent), code(short(f.name)))
                }
                out.append(cells.joinToString(" | ", "| ", " |\n"))
            }
            if (prefix == null) return out.toString()
            val pkg = prefix.trimEnd('/').replace('/', '.')
            out.append(
                if (top.own.isEmpty()) {
                    "\nYour code (`$pkg`): in no sample.\n"
                } else {
                    "\nYour code (`$pkg`), total %: " +
                        top.own.joinToString(" · ") { "${code(short(it.name))} ${percent(it.percent)}" } + "\n"
                },
            )
            return out.toString()
        }

        private fun percent(p: Double) = String.format(Locale.ROOT, "%.1f", p)

        /** A code span: `<init>`, `$` and `_` stay literal; a pipe would end the table cell, a backtick the span. */
        private fun code(name: String) = "`" + name.replace('`', '\'').replace("|", "\\|") + "`"

        /** The tables' order: variant, server, then the parameters, numbers by value. */
        private val ROWS = Comparator<BenchmarkResult> { a, b ->
            compareValuesBy(a, b, { it.variant }, { it.params[ParamNames.SERVER] }).takeIf { it != 0 }
                ?: (a.params.keys + b.params.keys).sorted().asSequence().map { k ->
                    val x = a.params[k]
                    val y = b.params[k]
                    val nx = x?.toDoubleOrNull()
                    val ny = y?.toDoubleOrNull()
                    if (nx != null && ny != null) nx.compareTo(ny) else (x ?: "").compareTo(y ?: "")
                }.firstOrNull { it != 0 } ?: 0
        }
    }
}

package serverbench.hyperfoil

import joptsimple.OptionException
import joptsimple.OptionParser
import joptsimple.OptionSet
import joptsimple.OptionSpec
import serverbench.fixture.RemoteTarget
import java.io.File

/**
 * `scripts/hyperfoil`'s command line, read with jopt-simple as `scripts/serve`'s is: the launcher's regex and `-p`
 * (the same runs), how long to warm up and measure, and where the server is. A bad option throws
 * [IllegalArgumentException] with the one line to print.
 */
class HyperfoilOptions(
    val regex: String,
    /** Every `-p` as typed, `name=v1,v2`, for the launcher's planning and checks. */
    val params: List<String>,
    val exportOnly: Boolean,
    /** A running `scripts/serve` to drive (host:port); null = start one per run on a free loopback port. */
    val serverHost: RemoteTarget?,
    val agents: Map<String, String>,
    val sizing: HyperfoilYaml.Sizing,
    val help: Boolean = false,
    /** A controller's statistics (all.json) of the file [regex] names, to fold into the results; nothing runs. */
    val importFrom: File? = null,
) {
    companion object {
        const val USAGE = "usage: scripts/hyperfoil <benchmark regex> [-p name=v1,v2 ...] [--warmup 30s] [-i 5] " +
            "[-r 5s] [--export-only] [--server-host host:port [--admin-port N] [--allow-remote]] " +
            "[--agents name=host[:port],...]   (the runs are the launcher's for the same regex and -p; each is " +
            "exported as a Hyperfoil benchmark under jmh-results/, then run in-VM against scripts/serve); or: " +
            "scripts/hyperfoil --import all.json <exported .hf.yaml>   (a controller's results into the results)"

        private const val MAX_SECONDS = 3600

        fun parse(args: List<String>): HyperfoilOptions {
            val given = Given(args)
            val set = given.set
            val positional = set.nonOptionArguments().map { it.toString() }
            if (set.has(given.helpSpec)) {
                return HyperfoilOptions("", emptyList(), false, null, emptyMap(), HyperfoilYaml.Sizing(1, 1, 1), true)
            }
            set.valueOf(given.importSpec)?.let { return imported(it, positional, set.specs().size) }
            val regex = positional.firstOrNull() ?: throw IllegalArgumentException("the benchmark regex is missing")
            positional.drop(1).firstOrNull()?.let { throw IllegalArgumentException("unexpected argument '$it'") }
            val params = set.valuesOf(given.paramSpec)
            params.firstOrNull { !it.contains('=') }?.let {
                throw IllegalArgumentException("-p $it: expected name=value[,value...]")
            }
            val sizing = given.sizing()
            val target = given.target()
            val agents = set.valueOf(given.agentsSpec)?.let { agents(it) } ?: emptyMap()
            val exportOnly = set.has(given.exportSpec)
            if (agents.isNotEmpty()) requireAgentsReachable(exportOnly, target)
            return HyperfoilOptions(regex, params, exportOnly, target, agents, sizing)
        }

        /** The options as [args] give them. */
        private class Given(args: List<String>) {
            // No abbreviations: `--export` should not quietly mean --export-only.
            private val parser = OptionParser(false)
            val paramSpec: OptionSpec<String> = parser.accepts("p").withRequiredArg()
            val exportSpec: OptionSpec<Void> = parser.accepts("export-only")
            private val hostSpec = parser.accepts("server-host").withRequiredArg()
            private val adminSpec = parser.accepts("admin-port").withRequiredArg()
            private val remoteSpec = parser.accepts("allow-remote")
            val agentsSpec: OptionSpec<String> = parser.accepts("agents").withRequiredArg()
            private val warmupSpec = parser.accepts("warmup").withRequiredArg().defaultsTo("30s")
            private val iterationsSpec = parser.accepts("i").withRequiredArg().defaultsTo("5")
            private val timeSpec = parser.accepts("r").withRequiredArg().defaultsTo("5s")
            val importSpec: OptionSpec<String> = parser.accepts("import").withRequiredArg()
            val helpSpec: OptionSpec<Void> = parser.acceptsAll(listOf("h", "help"))
            val set: OptionSet = try {
                parser.parse(*args.toTypedArray())
            } catch (e: OptionException) {
                throw IllegalArgumentException(e.message)
            }

            /** --warmup, -i and -r. */
            fun sizing() = HyperfoilYaml.Sizing(
                seconds("--warmup", set.valueOf(warmupSpec)),
                set.valueOf(iterationsSpec).toIntOrNull()?.takeIf { it in 1..1000 }
                    ?: throw IllegalArgumentException(
                        "-i must be an integer from 1 to 1000, was '${set.valueOf(iterationsSpec)}'",
                    ),
                seconds("-r", set.valueOf(timeSpec)),
            )

            /** --server-host with its --admin-port and --allow-remote, refused in these options' own names. */
            fun target(): RemoteTarget? {
                if (set.has(adminSpec) && !set.has(hostSpec)) {
                    throw IllegalArgumentException(
                        "--admin-port names the admin endpoint of --server-host, which is missing",
                    )
                }
                val host = set.valueOf(hostSpec) ?: return null
                val given = mapOf(
                    RemoteTarget.TARGET to host,
                    RemoteTarget.ADMIN to set.valueOf(adminSpec),
                    RemoteTarget.ALLOW_REMOTE to if (set.has(remoteSpec)) "true" else null,
                )
                try {
                    return RemoteTarget.of { given[it] }
                } catch (e: IllegalArgumentException) {
                    throw IllegalArgumentException(
                        e.message!!.replace("-D${RemoteTarget.ALLOW_REMOTE}=true", "--allow-remote")
                            .replace("-D${RemoteTarget.ADMIN}", "--admin-port")
                            .replace("-D${RemoteTarget.TARGET}", "--server-host"),
                    )
                }
            }
        }

        /** --agents run the exported files on a controller's agents, which reach the server by its address. */
        private fun requireAgentsReachable(exportOnly: Boolean, target: RemoteTarget?) {
            if (!exportOnly) {
                throw IllegalArgumentException(
                    "--agents: the in-VM run is one agent (this machine); add --export-only and run the files on a " +
                        "Hyperfoil controller with its agents (docs/more-load.md)",
                )
            }
            if (target == null) {
                throw IllegalArgumentException(
                    "--agents: the agents run on other hosts, where 127.0.0.1 is not this server: add --server-host " +
                        "with the server's address (and --allow-remote)",
                )
            }
        }

        private fun imported(allJson: String, positional: List<String>, options: Int): HyperfoilOptions {
            val file = positional.singleOrNull() ?: throw IllegalArgumentException(
                "--import $allJson needs the exported benchmark file it ran (one .hf.yaml), was " +
                    positional.joinToString(" ").ifEmpty { "none" },
            )
            require(options == 1) { "--import takes no other option: the file says how its run was made" }
            val dummy = HyperfoilYaml.Sizing(1, 1, 1)
            return HyperfoilOptions(
                file,
                emptyList(),
                false,
                null,
                emptyMap(),
                dummy,
                importFrom = File(allJson),
            )
        }

        /** "30s" or "30": whole seconds, as Hyperfoil's statistics come per second. */
        private fun seconds(option: String, value: String): Int =
            value.removeSuffix("s").toIntOrNull()?.takeIf { it in 1..MAX_SECONDS }
                ?: throw IllegalArgumentException(
                    "$option must be whole seconds from 1 to $MAX_SECONDS (e.g. 5s), was '$value'",
                )

        /** `a=10.0.0.7,b=user@10.0.0.8:2222`: Hyperfoil's inline agent form, name -> [user@]host[:port]. */
        private fun agents(value: String): Map<String, String> {
            val out = LinkedHashMap<String, String>()
            for (part in value.split(',')) {
                val name = part.substringBefore('=', "").trim()
                val address = part.substringAfter('=', "").trim()
                val named = Regex("[A-Za-z0-9_-]+").matches(name)
                if (!named || !Regex("([^@\\s]+@)?[^@:\\s]+(:\\d+)?").matches(address)) {
                    throw IllegalArgumentException(
                        "--agents must be name=[user@]host[:port],... (Hyperfoil's agent names and SSH addresses), " +
                            "was '$part'",
                    )
                }
                if (out.put(name, address) != null) throw IllegalArgumentException("--agents names '$name' twice")
            }
            return out
        }
    }
}

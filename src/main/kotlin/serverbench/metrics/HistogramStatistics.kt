package serverbench.metrics

import org.HdrHistogram.Histogram
import org.openjdk.jmh.util.AbstractStatistics
import java.nio.ByteBuffer
import java.util.AbstractMap
import java.util.zip.Deflater
import kotlin.math.max
import kotlin.math.min

/**
 * JMH [org.openjdk.jmh.util.Statistics] over an HdrHistogram recorded in µs, reporting ms. Serialized compressed: JMH
 * ships every result from the forked JVM to the host.
 */
class HistogramStatistics private constructor(private val compressed: ByteArray) : AbstractStatistics() {
    @Transient
    private var histogram: Histogram? = null

    fun decoded(): Histogram = histogram ?: Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(compressed), 0)
        .also { histogram = it }

    override fun getN(): Long = decoded().totalCount
    override fun getMax(): Double = if (n == 0L) Double.NaN else decoded().maxValue / 1000.0
    override fun getMin(): Double = if (n == 0L) Double.NaN else decoded().minValue / 1000.0
    override fun getMean(): Double = if (n == 0L) Double.NaN else decoded().mean / 1000.0
    override fun getSum(): Double = mean * n
    override fun getVariance(): Double = decoded().stdDeviation.let { it * it } / 1e6
    override fun getPercentile(rank: Double): Double = when {
        n == 0L -> Double.NaN
        rank <= 0.0 -> min
        rank >= 100.0 -> max
        else -> decoded().getValueAtPercentile(rank) / 1000.0
    }

    override fun getHistogram(levels: DoubleArray): IntArray {
        val result = IntArray(levels.size - 1)
        for (v in decoded().recordedValues()) {
            val ms = v.valueIteratedTo / 1000.0
            for (i in 0 until levels.size - 1) {
                if (ms >= levels[i] && ms < levels[i + 1]) {
                    result[i] += v.countAtValueIteratedTo.toInt()
                    break
                }
            }
        }
        return result
    }

    override fun getRawData(): MutableIterator<MutableMap.MutableEntry<Double, Long>> =
        decoded().recordedValues().map<_, MutableMap.MutableEntry<Double, Long>> {
            AbstractMap.SimpleEntry(it.valueIteratedTo / 1000.0, it.countAtValueIteratedTo)
        }.toMutableList().iterator()

    companion object {
        private const val serialVersionUID = 1L

        fun of(h: Histogram): HistogramStatistics {
            val buffer = ByteBuffer.allocate(h.neededByteBufferCapacity)
            val length = h.encodeIntoCompressedByteBuffer(buffer, Deflater.BEST_SPEED)
            return HistogramStatistics(buffer.array().copyOf(length)).also { it.histogram = h }
        }
    }
}

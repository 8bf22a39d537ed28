package serverbench

import org.junit.jupiter.api.Tag

/**
 * A test of the full set only: `mvn verify` leaves it out to stay within a contributor's loop, `mvn verify -Pfull`
 * (and CI) runs it. For the slow end-to-end runs whose path a faster test already covers in part; docs/testing.md
 * lists what the default leaves out (TestingDocTest keeps that list complete).
 */
@Target(AnnotationTarget.CLASS, AnnotationTarget.FUNCTION)
@Retention(AnnotationRetention.RUNTIME)
@Tag("full")
annotation class Full

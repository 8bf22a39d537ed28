package serverbench.app

import io.netty.handler.ssl.OpenSsl
import io.netty.handler.ssl.SslProvider
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.boot.reactor.netty.NettyServerCustomizer
import org.springframework.boot.ssl.SslBundle
import org.springframework.boot.ssl.pem.PemSslStoreBundle
import org.springframework.boot.ssl.pem.PemSslStoreDetails
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment
import reactor.netty.http.Http11SslContextSpec
import reactor.netty.http.Http2SslContextSpec

/**
 * The `sslProvider` knob (Netty with `tls=true`): which TLS engine Reactor Netty's HTTPS runs on. Boot has no property
 * for it, and Netty's own default follows the classpath (OpenSSL whenever netty-tcnative loads, which it does in this
 * jar), so the server is made secure again here with the certificate and key of Boot's `server.ssl.*`, the engine
 * named: `jdk` (JSSE, what a Spring Boot service without netty-tcnative runs) or `openssl` (BoringSSL through
 * netty-tcnative).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(NettySslProvider.PROPERTY)
class NettySslProvider {
    @Bean
    fun sslProviderCustomizer(env: Environment): NettyServerCustomizer {
        val provider = when (val name = env.getRequiredProperty(PROPERTY)) {
            "jdk" -> SslProvider.JDK
            "openssl" -> SslProvider.OPENSSL
            else -> throw IllegalArgumentException("$PROPERTY must be jdk or openssl, was '$name'")
        }
        if (provider == SslProvider.OPENSSL) {
            check(OpenSsl.isAvailable()) {
                "sslProvider=openssl: netty-tcnative's native library does not load here " +
                    "(${OpenSsl.unavailabilityCause()}); use sslProvider=jdk"
            }
        }
        // Boot's own PEM reading, as for its server.ssl.certificate: the PEM text itself (TlsCertificate) or a file.
        val pem = PemSslStoreDetails.forCertificate(env.getRequiredProperty("server.ssl.certificate"))
            .withPrivateKey(env.getRequiredProperty("server.ssl.certificate-private-key"))
        val keys = SslBundle.of(PemSslStoreBundle(pem, null)).managers.keyManagerFactory
        // With HTTP/2 on (-p protocol=h2), the spec that offers h2 by ALPN, as Boot's own would.
        val spec = if (env.getProperty("server.http2.enabled", Boolean::class.java, false)) {
            Http2SslContextSpec.forServer(keys).configure { it.sslProvider(provider) }
        } else {
            Http11SslContextSpec.forServer(keys).configure { it.sslProvider(provider) }
        }
        return NettyServerCustomizer { server -> server.secure { it.sslContext(spec) } }
    }

    companion object {
        const val PROPERTY = "serverbench.netty.ssl-provider"

        /** Which engine a Reactor Netty server in this JVM runs its TLS on, for the trial's setup line. */
        fun describe(provider: String): String = when (provider) {
            "openssl" -> "OpenSSL (${OpenSsl.versionString()} via netty-tcnative)"
            else -> "JDK (JSSE)"
        }
    }
}

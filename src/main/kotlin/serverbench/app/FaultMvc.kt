package serverbench.app

import jakarta.servlet.http.HttpServletResponse
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController

/** Faults only the servlet API can produce this way (see [FaultEndpoints] for the shared ones). */
@RestController
class FaultMvc {
    /**
     * Promises [FaultEndpoints.TRUNCATED_LENGTH] bytes, sends two, then fails: the response is committed, so Tomcat can
     * only close the connection. The client sees a connection closed mid-response.
     */
    @GetMapping("/fault/truncated")
    fun truncated(response: HttpServletResponse) {
        response.contentType = "text/plain"
        response.setContentLength(FaultEndpoints.TRUNCATED_LENGTH)
        response.outputStream.write(FaultEndpoints.OK.toByteArray())
        response.flushBuffer()
        throw IllegalStateException(FaultEndpoints.TRUNCATED_MESSAGE)
    }
}

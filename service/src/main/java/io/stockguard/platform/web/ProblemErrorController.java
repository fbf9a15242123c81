package io.stockguard.platform.web;

import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.Problems;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces the container's error page: failures raised outside Spring MVC (in a filter, by the
 * servlet container) still answer with a problem body and a code, never an HTML page or a trace.
 * Hidden from the API description: clients never call it, and they read its bodies as the
 * {@code Problem} schema of every error response.
 */
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

    @RequestMapping("/error")
    ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
        Object statusAttribute = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = statusAttribute instanceof Integer value ? value : 500;
        ProblemCode code = ProblemHandler.codeFor(HttpStatus.valueOf(status));
        ProblemDetail problem = Problems.of(code, code.title(), CurrentRequest.traceId(request), Map.of());
        return ResponseEntity.status(code.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }
}

package io.stockguard.console.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.TraceId;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * Failures on console pages become a console page with the stable code and what to do, never a
 * stack trace: messages of unexpected exceptions are not shown (they can carry SQL or secrets),
 * only the trace id to quote.
 */
@ControllerAdvice(annotations = ConsolePage.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ConsoleErrors {

    private static final Logger log = LoggerFactory.getLogger(ConsoleErrors.class);

    @ExceptionHandler(ApiProblemException.class)
    ModelAndView problem(ApiProblemException e, HttpServletRequest request, HttpServletResponse response) {
        String detail = e.getMessage();
        if (e instanceof InvalidRequestException invalid && invalid.properties().get("errors") instanceof List<?> all) {
            detail = String.join("; ", all.stream().map(v -> v instanceof InvalidRequestException.FieldViolation f
                    ? f.field() + ": " + f.message() : String.valueOf(v)).toList());
        }
        return page(e.code(), detail, request, response);
    }

    @ExceptionHandler(Exception.class)
    ModelAndView unexpected(Exception e, HttpServletRequest request, HttpServletResponse response) {
        log.error("unexpected failure serving console page {} {}", request.getMethod(), request.getRequestURI(), e);
        return page(ProblemCode.INTERNAL, "An unexpected error occurred. Nothing is shown about it here; quote the "
                + "trace id when reporting it.", request, response);
    }

    static ModelAndView page(ProblemCode code, String detail, HttpServletRequest request,
            HttpServletResponse response) {
        response.setStatus(code.status().value());
        ModelAndView page = new ModelAndView("console/error");
        page.addObject("code", code.name());
        page.addObject("title", code.title());
        page.addObject("detail", detail);
        page.addObject("status", code.status().value());
        TraceId traceId = CurrentRequest.traceId(request);
        page.addObject("traceId", traceId == null ? null : traceId.value());
        return page;
    }
}

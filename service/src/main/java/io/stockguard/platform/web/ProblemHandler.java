package io.stockguard.platform.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.Problems;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns every failure that reaches Spring MVC into a problem response with a stable code. Messages
 * of unexpected exceptions are never echoed: they can carry SQL, host names or secrets.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
    /** A database restart or failover takes seconds; a caller retrying sooner only adds load. */
    private static final java.time.Duration DATABASE_RETRY_AFTER = java.time.Duration.ofSeconds(1);

    @ExceptionHandler(ApiProblemException.class)
    ResponseEntity<Object> apiProblem(ApiProblemException e, NativeWebRequest request) {
        ResponseEntity<Object> response = respond(e.code(), e.getMessage(), e.properties(), request);
        if (e.retryAfter() == null) {
            return response;
        }
        long seconds = ApiProblemException.retryAfterSeconds(e.retryAfter());
        return ResponseEntity.status(response.getStatusCode()).header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(response.getBody());
    }

    /**
     * The database could not be reached, or did not answer in time. The caller is told to retry
     * (503 with {@code Retry-After}), never that the service is broken (500): a read changed
     * nothing ({@code UNAVAILABLE}); a write may have committed before the failure
     * ({@code OUTCOME_UNKNOWN}), and its order id or request id makes the retry safe either way.
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, TransientDataAccessException.class,
            RecoverableDataAccessException.class})
    ResponseEntity<Object> databaseUnavailable(Exception e, NativeWebRequest request) {
        log.warn("the database did not serve {}: {}", describe(request), e.toString());
        HttpServletRequest servletRequest = request.getNativeRequest(HttpServletRequest.class);
        boolean read = servletRequest != null && ("GET".equals(servletRequest.getMethod())
                || "HEAD".equals(servletRequest.getMethod()));
        ResponseEntity<Object> response = read
                ? respond(ProblemCode.UNAVAILABLE, "the database is not answering; nothing was changed: retry after "
                        + "the Retry-After delay", Map.of(), request)
                : respond(ProblemCode.OUTCOME_UNKNOWN, "the database failed during the request; send the same "
                        + "request again (same order id or request id) to learn the outcome", Map.of(), request);
        return ResponseEntity.status(response.getStatusCode())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(DATABASE_RETRY_AFTER.toSeconds()))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(response.getBody());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<Object> unexpected(Exception e, NativeWebRequest request) {
        log.error("unexpected failure serving {}", describe(request), e);
        return respond(ProblemCode.INTERNAL, "an unexpected error occurred; quote the trace id when reporting it",
                Map.of(), request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (causedByOversizedBody(e)) {
            return respond(ProblemCode.PAYLOAD_TOO_LARGE, RequestSizeFilter.detail(), Map.of(), request);
        }
        return respond(ProblemCode.INVALID_REQUEST, readableReason(e), Map.of(), request);
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception e, Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        ProblemCode code = codeFor(status);
        String detail = code.title();
        if (body instanceof ProblemDetail problem && problem.getDetail() != null) {
            detail = problem.getDetail();
        } else if (e instanceof ErrorResponse error && error.getBody().getDetail() != null) {
            detail = error.getBody().getDetail();
        }
        ResponseEntity<Object> response = respond(code, detail, Map.of(), request);
        return ResponseEntity.status(response.getStatusCode()).headers(headers)
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(response.getBody());
    }

    private ResponseEntity<Object> respond(ProblemCode code, String detail, Map<String, Object> properties,
            WebRequest request) {
        HttpServletRequest servletRequest = ((NativeWebRequest) request).getNativeRequest(HttpServletRequest.class);
        ProblemDetail problem = Problems.of(code, detail,
                servletRequest == null ? null : CurrentRequest.traceId(servletRequest), properties);
        if (servletRequest != null) {
            problem.setInstance(java.net.URI.create(servletRequest.getRequestURI()));
        }
        return ResponseEntity.status(code.status()).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    static ProblemCode codeFor(HttpStatusCode status) {
        return switch (status.value()) {
            case 401 -> ProblemCode.UNAUTHENTICATED;
            case 403 -> ProblemCode.FORBIDDEN;
            case 404 -> ProblemCode.NOT_FOUND;
            case 405 -> ProblemCode.METHOD_NOT_ALLOWED;
            case 406 -> ProblemCode.NOT_ACCEPTABLE;
            case 413 -> ProblemCode.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemCode.UNSUPPORTED_MEDIA_TYPE;
            case 503 -> ProblemCode.UNAVAILABLE;
            default -> status.is4xxClientError() ? ProblemCode.INVALID_REQUEST : ProblemCode.INTERNAL;
        };
    }

    private static boolean causedByOversizedBody(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestSizeFilter.BodyTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Names what was wrong with the body without echoing parser internals: the JSON path of the
     * offending field when the parser knows it.
     */
    private static String readableReason(HttpMessageNotReadableException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof tools.jackson.databind.DatabindException databind && !databind.getPath().isEmpty()) {
                return "field '" + pathOf(databind) + "' has the wrong type or format";
            }
            if (cause instanceof tools.jackson.core.JacksonException) {
                return "the body is not valid JSON";
            }
        }
        return "the request body is missing or unreadable";
    }

    private static String pathOf(tools.jackson.databind.DatabindException e) {
        StringBuilder path = new StringBuilder();
        for (var reference : e.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String describe(NativeWebRequest request) {
        HttpServletRequest servletRequest = request.getNativeRequest(HttpServletRequest.class);
        return servletRequest == null ? "a request" : servletRequest.getMethod() + " " + servletRequest.getRequestURI();
    }
}

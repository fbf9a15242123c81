package io.stockguard.platform;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem response from places outside Spring MVC (servlet filters, security entry
 * points), so that those refusals look exactly like the ones controllers produce.
 */
@Component
public class ProblemWriter {

    private final JsonMapper jsonMapper;

    public ProblemWriter(JsonMapper jsonMapper) {
        this.jsonMapper = jsonMapper;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemCode code, String detail)
            throws IOException {
        write(request, response, code, detail, Map.of());
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemCode code, String detail,
            Map<String, Object> properties) throws IOException {
        ProblemDetail problem = Problems.of(code, detail, CurrentRequest.traceId(request), properties);
        problem.setInstance(java.net.URI.create(request.getRequestURI()));
        response.setStatus(code.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        jsonMapper.writeValue(response.getOutputStream(), problem);
    }
}

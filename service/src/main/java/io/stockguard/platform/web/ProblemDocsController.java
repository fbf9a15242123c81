package io.stockguard.platform.web;

import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.ProblemCode;
import io.stockguard.platform.Problems;
import java.util.Arrays;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Documents each problem code at the problem's own type URI ({@code /problems/insufficient-stock}),
 * so the {@code type} of every error response leads somewhere useful.
 */
@RestController
class ProblemDocsController {

    record ProblemDoc(String code, int status, String title, String description) {
    }

    @GetMapping(path = "/problems/{slug}", produces = MediaType.APPLICATION_JSON_VALUE)
    ProblemDoc describe(@PathVariable String slug) {
        return Arrays.stream(ProblemCode.values())
                .filter(code -> Problems.typeOf(code).getPath().equals("/problems/" + slug))
                .findFirst()
                .map(code -> new ProblemDoc(code.name(), code.status().value(), code.title(), code.description()))
                .orElseThrow(() -> new ApiProblemException(ProblemCode.NOT_FOUND, "no problem type '" + slug + "'",
                        Map.of()));
    }
}

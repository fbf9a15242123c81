package io.stockguard.catalogue.web;

import io.stockguard.catalogue.CatalogueExport;
import io.stockguard.catalogue.CatalogueFormat;
import io.stockguard.catalogue.CatalogueImports;
import io.stockguard.catalogue.ImportJob;
import io.stockguard.platform.ApiProblemException;
import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.stockguard.platform.ProblemCode;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin")
@Tag(name = "Admin: catalogue", description = "Import and export the catalogue in bulk (CSV or JSON lines)")
class CatalogueController {

    private static final int RECENT_JOBS = 20;
    private static final int JOB_ID_LENGTH = 36;

    private final CatalogueImports imports;
    private final CatalogueExport export;

    CatalogueController(CatalogueImports imports, CatalogueExport export) {
        this.imports = imports;
        this.export = export;
    }

    @PostMapping(path = "/skus:import", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Import SKUs from a CSV (text/csv, with a header) or JSON-lines (application/x-ndjson) body",
            description = "Columns: sku, total (required), buckets, safetyStock. Each line creates the SKU or sets it "
                    + "to what the line says; a line already true is counted unchanged, so an import can be run "
                    + "again safely. Answers 202 with the job at once; poll its Location for progress and the "
                    + "per-line error report. On the Redis tiers a preheat follows when SKUs were created.")
    ResponseEntity<ImportJob> importSkus(HttpServletRequest request) throws IOException {
        CatalogueFormat format = CatalogueFormat.of(contentType(request));
        Caller caller = new Caller(CurrentRequest.actor(), CurrentRequest.traceId(request));
        ImportJob job = imports.start(request.getInputStream(), format, caller);
        return ResponseEntity.accepted().location(URI.create("/api/v1/admin/skus:import/" + job.jobId())).body(job);
    }

    @GetMapping(path = "/skus:import/{jobId}", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "An import's progress and the lines that failed",
            description = "state RUNNING, DONE (every line tried: see failed and errors), FAILED (stopped: see "
                    + "message) or ABANDONED (the instance running it stopped; run the import again)")
    ImportJob job(@PathVariable String jobId) {
        // Job ids are UUIDs: anything longer names no job, and is not worth a query.
        return (jobId.length() > JOB_ID_LENGTH ? java.util.Optional.<ImportJob>empty() : imports.job(jobId)).orElseThrow(() -> new ApiProblemException(ProblemCode.NOT_FOUND,
                "no import " + abbreviated(jobId), Map.of("jobId", abbreviated(jobId))));
    }

    @GetMapping(path = "/skus:import", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The newest imports, newest first")
    List<ImportJob> recent() {
        return imports.recent(RECENT_JOBS);
    }

    @GetMapping(path = "/skus:export")
    @Operation(summary = "Every SKU, in id order, in the import's format (format=csv, the default, or ndjson)",
            description = "Streamed page by page. A SKU Redis sells is read from Redis, so its total is current "
                    + "even while the journal catches up.")
    void export(@RequestParam(defaultValue = "csv") String format, HttpServletResponse response) throws IOException {
        CatalogueFormat chosen = CatalogueFormat.named(format);
        response.setContentType(chosen.mediaType() + ";charset=UTF-8");
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION,
                "attachment; filename=\"stockguard-skus." + chosen.extension() + "\"");
        export.write(chosen, new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8));
    }

    private static String abbreviated(String jobId) {
        return jobId.length() <= JOB_ID_LENGTH ? jobId : jobId.substring(0, JOB_ID_LENGTH) + "…";
    }

    private static MediaType contentType(HttpServletRequest request) {
        String header = request.getContentType();
        if (header == null) {
            return null;
        }
        try {
            return MediaType.parseMediaType(header);
        } catch (org.springframework.http.InvalidMediaTypeException e) {
            throw new InvalidRequestException("Content-Type", "is not a media type");
        }
    }
}

package io.stockguard.access.web;

import io.stockguard.access.ApiKeyRegistry;
import io.stockguard.access.KeyKind;
import io.stockguard.platform.InvalidRequestException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/keys", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: API keys", description = "Keys of order services and scripts (admins only); audited")
class KeysController {

    private final ApiKeyRegistry keys;

    KeysController(ApiKeyRegistry keys) {
        this.keys = keys;
    }

    record CreateRequest(String name, String kind, String reason) {
    }

    record ReasonRequest(String reason) {
    }

    @GetMapping
    @Operation(summary = "Every key by name and kind, configured or created here; never a secret")
    List<ApiKeyRegistry.KeyView> all() {
        return keys.all();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a key; the response is the only time its secret is shown",
            description = "Other instances honour it within 5 seconds.")
    ResponseEntity<ApiKeyRegistry.CreatedKey> create(@RequestBody CreateRequest body, HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(keys.create(body.name(), kind(body.kind()),
                body.reason(), PeopleController.caller(request)));
    }

    @PostMapping(path = "/{name}/revoke", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Revoke a key created here; every instance refuses it within 5 seconds")
    ResponseEntity<Void> revoke(@PathVariable String name, @RequestBody ReasonRequest body,
            HttpServletRequest request) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
        keys.revoke(name, body.reason(), PeopleController.caller(request));
        return ResponseEntity.noContent().build();
    }

    static KeyKind kind(String text) {
        if (text == null) {
            return null;
        }
        try {
            return KeyKind.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

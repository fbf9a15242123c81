package io.stockguard.access.web;

import io.stockguard.access.People;
import io.stockguard.access.Person;
import io.stockguard.access.PersonRole;
import io.stockguard.platform.Caller;
import io.stockguard.platform.CurrentRequest;
import io.stockguard.platform.InvalidRequestException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping(path = "/api/v1/admin/people", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Admin: people", description = "Who may log in to the console, with which role (admins only); audited")
class PeopleController {

    private final People people;

    PeopleController(People people) {
        this.people = people;
    }

    record CreateRequest(String name, String role, String password, String reason) {
    }

    record RoleRequest(String role, String reason) {
    }

    record PasswordRequest(String password, String reason) {
    }

    record ReasonRequest(String reason) {
    }

    @GetMapping
    @Operation(summary = "Everyone who may log in: configured people and people created from the console")
    List<Person> all() {
        return people.all();
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a person with a role and a first password (12-72 characters)")
    ResponseEntity<Person> create(@RequestBody CreateRequest body, HttpServletRequest request) {
        require(body);
        Person created = people.create(body.name(), PersonRole.parse(body.role()), body.password(), body.reason(),
                caller(request));
        return ResponseEntity.created(URI.create("/api/v1/admin/people/" + created.name())).body(created);
    }

    @PostMapping(path = "/{name}/role", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Change a person's role; effective on their next request")
    Person role(@PathVariable String name, @RequestBody RoleRequest body, HttpServletRequest request) {
        require(body);
        return people.changeRole(name, PersonRole.parse(body.role()), body.reason(), caller(request));
    }

    @PostMapping(path = "/{name}/disable", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Stop a person from logging in; their open sessions end on their next request")
    Person disable(@PathVariable String name, @RequestBody ReasonRequest body, HttpServletRequest request) {
        require(body);
        return people.setEnabled(name, false, body.reason(), caller(request));
    }

    @PostMapping(path = "/{name}/enable", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Let a disabled person log in again")
    Person enable(@PathVariable String name, @RequestBody ReasonRequest body, HttpServletRequest request) {
        require(body);
        return people.setEnabled(name, true, body.reason(), caller(request));
    }

    @PostMapping(path = "/{name}/password", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Set a new password for a person")
    Person password(@PathVariable String name, @RequestBody PasswordRequest body, HttpServletRequest request) {
        require(body);
        return people.resetPassword(name, body.password(), body.reason(), caller(request));
    }

    private static void require(Object body) {
        if (body == null) {
            throw new InvalidRequestException("body", "is required");
        }
    }

    static Caller caller(HttpServletRequest request) {
        return new Caller(CurrentRequest.actor(), CurrentRequest.traceId(request));
    }
}

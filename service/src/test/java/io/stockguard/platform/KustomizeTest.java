package io.stockguard.platform;

import static io.stockguard.platform.DeployRecipes.at;
import static io.stockguard.platform.DeployRecipes.list;
import static io.stockguard.platform.DeployRecipes.map;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.stockguard.access.AccessProperties;
import io.stockguard.access.PeopleProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * What a cluster gets from each tier's overlay of {@code deploy/k8s}, rendered by {@code kubectl
 * kustomize} as {@code kubectl apply -k} would render it: the objects, the probes, the references
 * between them, the tier's settings, and that every setting is one the service reads.
 */
class KustomizeTest {

    static final List<String> TIERS = DeployRecipes.TIERS;

    @ParameterizedTest
    @FieldSource("TIERS")
    void everyOverlayRendersOneInstanceSetWithEveryObjectItNames(String tier) {
        List<Map<String, Object>> objects = DeployRecipes.kubernetesObjects(tier);
        assertThat(objects.stream().map(o -> o.get("kind") + " " + map(o.get("metadata")).get("name"))
                .map(s -> s.replaceAll("^(ConfigMap stockguard-config)-[a-z0-9]+$", "$1-<hash>")).toList())
                .containsExactlyInAnyOrder("Deployment stockguard", "Service stockguard",
                        "PodDisruptionBudget stockguard", "ConfigMap stockguard-config-<hash>",
                        "Secret stockguard-secrets", "Secret stockguard-metrics", "ServiceMonitor stockguard");

        // Every ConfigMap and Secret the container reads is rendered, each key it names is there.
        Map<String, Object> container = DeployRecipes.stockGuardContainer(objects);
        for (Object source : list(container.get("envFrom"))) {
            Map<String, Object> from = map(source);
            String kind = from.containsKey("configMapRef") ? "ConfigMap" : "Secret";
            Map<String, Object> reference = map(from.containsKey("configMapRef") ? from.get("configMapRef")
                    : from.get("secretRef"));
            DeployRecipes.kubernetesObject(objects, kind, (String) reference.get("name"));
        }
        for (Object entry : list(container.get("env"))) {
            Map<String, Object> valueFrom = map(map(entry).get("valueFrom"));
            for (String kind : List.of("secretKeyRef", "configMapKeyRef")) {
                if (valueFrom.containsKey(kind)) {
                    Map<String, Object> reference = map(valueFrom.get(kind));
                    Map<String, Object> object = DeployRecipes.kubernetesObject(objects,
                            kind.equals("secretKeyRef") ? "Secret" : "ConfigMap", (String) reference.get("name"));
                    assertThat(map(object.getOrDefault("stringData", object.get("data"))))
                            .containsKey((String) reference.get("key"));
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("TIERS")
    void eachOverlayGivesItsTierAndOnlyTheStoresItUses(String tier) {
        Map<String, String> environment = DeployRecipes.kubernetesEnvironment(tier);
        assertThat(environment).containsKeys("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME",
                "SPRING_DATASOURCE_PASSWORD", "STOCKGUARD_SECURITY_API_KEYS", "STOCKGUARD_SECURITY_ADMIN_KEYS",
                "STOCKGUARD_SECURITY_METRICS_KEYS");
        switch (tier) {
            case "database" -> {
                assertThat(environment).containsEntry("STOCKGUARD_LEDGER", "database");
                assertThat(environment).doesNotContainKeys("STOCKGUARD_REDIS_URL", "STOCKGUARD_JOURNAL",
                        "STOCKGUARD_KAFKA_BOOTSTRAP_SERVERS");
            }
            case "standard" -> {
                assertThat(environment).containsEntry("STOCKGUARD_LEDGER", "redis").containsKey("STOCKGUARD_REDIS_URL")
                        .containsEntry("STOCKGUARD_REDIS_WAIT_REPLICAS", "1");
                assertThat(environment).doesNotContainKeys("STOCKGUARD_JOURNAL", "STOCKGUARD_KAFKA_BOOTSTRAP_SERVERS");
            }
            case "full" -> assertThat(environment).containsEntry("STOCKGUARD_LEDGER", "redis")
                    .containsEntry("STOCKGUARD_JOURNAL", "kafka").containsKey("STOCKGUARD_REDIS_URL")
                    .containsKey("STOCKGUARD_KAFKA_BOOTSTRAP_SERVERS");
            default -> throw new AssertionError("a tier this test does not know: " + tier);
        }
    }

    /** The same rule compose's variables are held to: each binds to a setting the service reads. */
    @Test
    void everyVariableAnOverlayGivesSetsARealSetting() {
        Map<String, Set<String>> given = new LinkedHashMap<>();
        for (String tier : TIERS) {
            DeployRecipes.kubernetesEnvironment(tier).keySet()
                    .forEach(v -> given.computeIfAbsent(v, k -> new TreeSet<>()).add("deploy/k8s/overlays/" + tier));
        }
        assertThat(given).containsKeys("STOCKGUARD_LEDGER", "STOCKGUARD_JOURNAL", "STOCKGUARD_REDIS_URL");
        assertThat(DeployRecipesTest.unknownVariables(given)).isEmpty();
    }

    /**
     * A setting changed in an overlay renames the ConfigMap (its hash) and the Deployment follows,
     * so {@code kubectl apply -k} rolls the instances onto it; an unchanged one keeps the name.
     */
    @Test
    void aChangedSettingRollsTheInstances(@TempDir Path folder) throws IOException {
        Path overlay = Files.createDirectories(folder.resolve("overlay"));
        Files.writeString(overlay.resolve("kustomization.yaml"), String.join("\n",
                "apiVersion: kustomize.config.k8s.io/v1beta1", "kind: Kustomization",
                // Kustomize takes only a relative path to another kustomization.
                "resources:", "  - " + overlay.relativize(DeployRecipes.K8S.resolve("overlays").resolve("standard")),
                "configMapGenerator:", "  - name: stockguard-config", "    behavior: merge", "    literals:",
                "      - STOCKGUARD_REDIS_WAIT_REPLICAS=2", ""));
        List<Map<String, Object>> changed = DeployRecipes.render(overlay);
        List<Map<String, Object>> standard = DeployRecipes.kubernetesObjects("standard");

        assertThat(configMapName(changed)).isNotEqualTo(configMapName(standard));
        assertThat(DeployRecipes.kubernetesEnvironment(changed)).containsEntry("STOCKGUARD_REDIS_WAIT_REPLICAS", "2");
        assertThat(configMapName(DeployRecipes.render(DeployRecipes.K8S.resolve("overlays").resolve("standard"))))
                .isEqualTo(configMapName(standard));
    }

    /** The Secret is a template: left as it is, the service must refuse to start rather than run on its keys. */
    @ParameterizedTest
    @FieldSource("TIERS")
    void theSecretsPlaceholdersStopTheServiceAtStartNamingTheSetting(String tier) {
        Map<String, Object> secret = DeployRecipes.kubernetesObject(tier, "Secret", "stockguard-secrets");
        Map<String, Object> values = map(secret.get("stringData"));
        values.forEach((key, value) -> {
            if (!key.equals("SPRING_DATASOURCE_USERNAME")) {
                assertThat(value.toString()).as(key + " is a placeholder").contains("REPLACE-ME");
            }
        });
        var source = new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                values);
        Binder binder = new Binder(ConfigurationPropertySources.from(source));
        assertThatThrownBy(() -> binder.bind("stockguard.security", AccessProperties.class))
                .rootCause().hasMessageContaining("stockguard.security.api-keys[0]");
        assertThatThrownBy(() -> binder.bind("stockguard.security.people", PeopleProperties.class))
                .rootCause().hasMessageContaining("stockguard.security.people.users[0]");
    }

    @ParameterizedTest
    @FieldSource("TIERS")
    void theDeploymentProbesShutsDownGracefullyAndIsScrapedWithAKey(String tier) {
        List<Map<String, Object>> objects = DeployRecipes.kubernetesObjects(tier);
        Map<String, Object> deployment = DeployRecipes.kubernetesObject(objects, "Deployment", "stockguard");
        Map<String, Object> spec = map(deployment.get("spec"));
        Map<String, Object> pod = at(deployment, "spec", "template", "spec");
        Map<String, Object> podLabels = at(deployment, "spec", "template", "metadata", "labels");
        Map<String, Object> container = DeployRecipes.stockGuardContainer(objects);
        assertThat((Integer) spec.get("replicas")).as("replicas").isGreaterThanOrEqualTo(2);
        assertThat(podLabels).containsAllEntriesOf(at(deployment, "spec", "selector", "matchLabels"));

        Set<String> portNames = list(container.get("ports")).stream().map(p -> (String) map(p).get("name"))
                .collect(Collectors.toSet());
        assertThat(at(container, "livenessProbe", "httpGet").get("path")).isEqualTo(DeployRecipes.LIVENESS);
        assertThat(at(container, "readinessProbe", "httpGet").get("path")).isEqualTo(DeployRecipes.READINESS);
        assertThat(at(container, "startupProbe", "httpGet").get("path")).isEqualTo(DeployRecipes.LIVENESS);
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(portNames).as(probe + " port").contains((String) at(container, probe, "httpGet").get("port"));
        }
        assertThat(at(container, "resources", "requests")).containsKeys("cpu", "memory");
        assertThat(at(container, "resources", "limits")).containsKey("memory");

        // The pod gets longer than the preStop pause plus one shutdown phase before it is killed.
        List<Object> preStop = list(at(container, "lifecycle", "preStop", "exec").get("command"));
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        Duration pause = Duration.ofSeconds(Long.parseLong(preStop.get(1).toString()));
        Duration phase = DurationStyle.detectAndParse(DeployRecipes.kubernetesEnvironment(objects)
                .get("SPRING_LIFECYCLE_TIMEOUT_PER_SHUTDOWN_PHASE"));
        assertThat(Duration.ofSeconds(((Number) pod.get("terminationGracePeriodSeconds")).longValue()))
                .isGreaterThan(pause.plus(phase));

        Map<String, Object> service = DeployRecipes.kubernetesObject(objects, "Service", "stockguard");
        assertThat(podLabels).containsAllEntriesOf(at(service, "spec", "selector"));
        Map<String, Object> servicePort = map(list(at(service, "spec").get("ports")).getFirst());
        assertThat(portNames).contains((String) servicePort.get("targetPort"));
        Map<String, Object> budget = DeployRecipes.kubernetesObject(objects, "PodDisruptionBudget", "stockguard");
        assertThat(podLabels).containsAllEntriesOf(at(budget, "spec", "selector", "matchLabels"));
        assertThat((Integer) at(budget, "spec").get("minAvailable")).isLessThan((Integer) spec.get("replicas"));

        // The ServiceMonitor scrapes the Service's port with the key the metrics Secret holds; its job
        // label is the Service's name, which the alert rules select.
        Map<String, Object> monitor = DeployRecipes.kubernetesObject(objects, "ServiceMonitor", "stockguard");
        assertThat(at(service, "metadata", "labels"))
                .containsAllEntriesOf(at(monitor, "spec", "selector", "matchLabels"));
        Map<String, Object> endpoint = map(list(at(monitor, "spec").get("endpoints")).getFirst());
        assertThat(endpoint.get("port")).isEqualTo(servicePort.get("name"));
        assertThat(endpoint.get("path")).isEqualTo(DeployRecipes.METRICS);
        Map<String, Object> credentials = at(endpoint, "authorization", "credentials");
        assertThat(map(DeployRecipes.kubernetesObject(objects, "Secret", (String) credentials.get("name"))
                .get("stringData"))).containsKey((String) credentials.get("key"));
        assertThat(at(service, "metadata").get("name")).isEqualTo("stockguard");

        // The pod runs as the image's user and talks to the port the image exposes.
        String dockerfile = DeployRecipes.read(DeployRecipes.DOCKERFILE);
        assertThat(at(pod, "securityContext").get("runAsUser").toString())
                .isEqualTo(DeployRecipesTest.instruction(dockerfile, "USER").split(":")[0]);
        assertThat(map(list(container.get("ports")).getFirst()).get("containerPort").toString())
                .isEqualTo(DeployRecipesTest.instruction(dockerfile, "EXPOSE"));
    }

    private static String configMapName(List<Map<String, Object>> objects) {
        List<String> names = new ArrayList<>();
        for (Object source : list(DeployRecipes.stockGuardContainer(objects).get("envFrom"))) {
            Map<String, Object> from = map(source);
            if (from.containsKey("configMapRef")) {
                names.add((String) map(from.get("configMapRef")).get("name"));
            }
        }
        assertThat(names).hasSize(1);
        assertThat(objects).anySatisfy(o -> assertThat(map(o.get("metadata")).get("name")).isEqualTo(names.getFirst()));
        return names.getFirst();
    }
}

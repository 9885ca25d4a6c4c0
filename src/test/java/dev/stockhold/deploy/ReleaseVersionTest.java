package dev.stockhold.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import dev.stockhold.support.Management;
import dev.stockhold.support.Repository;
import io.quarkus.test.junit.QuarkusTest;

/**
 * One version per release: the Maven project's (which the build reports at /q/info and every metric carries as its
 * version tag), the newest release heading of CHANGELOG.md, and the image tag and version label the Kubernetes
 * overlays deploy.
 */
@QuarkusTest
class ReleaseVersionTest {

    @Test
    void shouldCarryOneVersionInTheBuildTheChangelogAndTheManifests() throws IOException {
        String version = ConfigProvider.getConfig().getValue("quarkus.application.version", String.class);
        assertThat(version).as("a release version, not a snapshot").matches("\\d+\\.\\d+\\.\\d+");

        Management.given().get("/q/info").then().statusCode(200).body("build.version", is(version));

        List<String> changelog = Files.readAllLines(Repository.path("CHANGELOG.md"));
        String newest = changelog.stream().filter(l -> l.startsWith("## [") && !l.equals("## [Unreleased]")).findFirst().orElseThrow();
        assertThat(newest).startsWith("## [" + version + "] - ");

        assertThat(Files.readString(Repository.path("k8s/overlays/prod/kustomization.yaml"))).contains("newTag: " + version + "\n");
        assertThat(Files.readString(Repository.path("k8s/overlays/dev/kustomization.yaml"))).contains("newTag: " + version + "\n");
        assertThat(Files.readString(Repository.path("k8s/base/deployment.yaml")))
                .contains("app.kubernetes.io/version: \"" + version + "\"");
        assertThat(Files.readString(Repository.path("k8s/overlays/prod/rollout.yaml"))).contains("value: \"" + version + "\"");
    }
}

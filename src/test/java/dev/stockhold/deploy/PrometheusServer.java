package dev.stockhold.deploy;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A Prometheus server from Debian's package, scraping the given targets every second, queried over its HTTP API. */
final class PrometheusServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static boolean available() {
        try {
            return new ProcessBuilder("prometheus", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @param targets host:port of each replica, scraped at /q/metrics as job "stockhold" */
    static PrometheusServer start(Path work, int port, List<String> targets) throws IOException, InterruptedException {
        Path data = Files.createDirectories(work.resolve("prometheus-data-" + System.nanoTime()));
        Path config = work.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: stockhold
                    metrics_path: /q/metrics
                    static_configs:
                      - targets: [%s]
                """.formatted(String.join(", ", targets.stream().map(t -> "'" + t + "'").toList())));
        Process process = new ProcessBuilder("prometheus", "--config.file=" + config, "--storage.tsdb.path=" + data,
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(work.resolve("prometheus.log").toFile()).start();
        PrometheusServer server = new PrometheusServer(process, port);
        server.awaitReady();
        return server;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<Void> ready = http.send(HttpRequest.newBuilder(URI.create(base() + "/-/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("prometheus exited with " + process.exitValue());
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("prometheus not ready within 30 s");
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    /** An instant query, as Argo Rollouts and Grafana send it: the samples of the resulting vector. */
    List<Sample> query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new IllegalArgumentException("query failed: " + body.path("error").asText() + ": " + promql);
        }
        JsonNode data = body.path("data");
        List<Sample> samples = new ArrayList<>();
        if ("scalar".equals(data.path("resultType").asText())) {
            samples.add(new Sample(JSON.createObjectNode(), Double.parseDouble(data.path("result").get(1).asText())));
            return samples;
        }
        for (JsonNode series : data.path("result")) {
            samples.add(new Sample(series.path("metric"), Double.parseDouble(series.path("value").get(1).asText())));
        }
        return samples;
    }

    /** Whether every target has been scraped successfully at least once. */
    boolean allTargetsUp(int targets) throws IOException, InterruptedException {
        List<Sample> up = query("up{job=\"stockhold\"} == 1");
        return up.size() == targets;
    }

    record Sample(JsonNode labels, double value) {
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}

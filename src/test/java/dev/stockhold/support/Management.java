package dev.stockhold.support;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.microprofile.config.ConfigProvider;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * Requests to the management interface (health and metrics), which listens on a port of its own, never the API's. The
 * test profile asks for a free port; Quarkus publishes the one it got as {@code quarkus.management.test-port}.
 */
public final class Management {

    private Management() {
    }

    public static RequestSpecification given() {
        return RestAssured.given().baseUri("http://localhost").port(port());
    }

    /** The largest value among the series of {@code name} whose labels contain {@code label} ("" for any). */
    public static double metric(String name, String label) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$")
                .matcher(given().get("/q/metrics").asString());
        double value = 0;
        while (m.find()) {
            if (m.group(1) == null ? label.isEmpty() : m.group(1).contains(label)) {
                value = Math.max(value, Double.parseDouble(m.group(2)));
            }
        }
        return value;
    }

    public static double metric(String name) {
        return metric(name, "");
    }

    public static int port() {
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }
}

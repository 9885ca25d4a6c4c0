package dev.stockhold.support;

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

    public static int port() {
        return ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
    }
}

/**
 * The event contract: one payload record per event type and version, each with a JSON Schema kept in
 * {@code META-INF/resources/schemas/events} and served at {@code /schemas/events/{type}.json}. These records are the
 * events' own types: nothing here refers to the REST API's bodies, so a change to an API body cannot change an event
 * (docs/events.md). A breaking change to a payload is a new version ({@code .v2}) published alongside the old one.
 */
package dev.stockhold.events;

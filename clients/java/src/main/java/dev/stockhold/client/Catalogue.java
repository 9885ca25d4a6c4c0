package dev.stockhold.client;

import dev.stockhold.client.model.Channel;
import dev.stockhold.client.model.ChannelList;
import dev.stockhold.client.model.ChannelRequest;
import dev.stockhold.client.model.Kit;
import dev.stockhold.client.model.KitList;
import dev.stockhold.client.model.KitRequest;
import dev.stockhold.client.model.Location;
import dev.stockhold.client.model.LocationList;
import dev.stockhold.client.model.LocationRequest;
import dev.stockhold.client.model.Settings;

/** The tenant's set-up: locations, channels, kits and settings. Every write is an absolute set, safe to repeat. */
public final class Catalogue {

    private final Calls calls;

    Catalogue(Calls calls) {
        this.calls = calls;
    }

    public LocationList locations() {
        return calls.send(Request.of(Operation.LOCATIONS), LocationList.class).value();
    }

    public Location putLocation(String location, LocationRequest request) {
        return calls.send(Request.of(Operation.LOCATION_PUT, location).body(request), Location.class).value();
    }

    public ChannelList channels() {
        return calls.send(Request.of(Operation.CHANNELS), ChannelList.class).value();
    }

    public Answer<Channel> channel(String channel) {
        return calls.send(Request.of(Operation.CHANNEL, channel), Channel.class);
    }

    /** Creates or replaces a channel; with {@code read} (not null) only if it is still that version. */
    public Answer<Channel> putChannel(String channel, ChannelRequest request, Channel read) {
        return calls.send(ifRead(Request.of(Operation.CHANNEL_PUT, channel).body(request), read == null ? null : read.version()), Channel.class);
    }

    public KitList kits() {
        return calls.send(Request.of(Operation.KITS), KitList.class).value();
    }

    public Answer<Kit> kit(String sku) {
        return calls.send(Request.of(Operation.KIT, sku), Kit.class);
    }

    /** Creates or replaces a kit; with {@code read} (not null) only if it is still that version. */
    public Answer<Kit> putKit(String sku, KitRequest request, Kit read) {
        return calls.send(ifRead(Request.of(Operation.KIT_PUT, sku).body(request), read == null ? null : read.version()), Kit.class);
    }

    /** The write as a compare-and-set against the version read, or unconditional without a read. */
    private static Request ifRead(Request put, Long version) {
        return version == null ? put : put.ifMatch(Long.toString(version));
    }

    public Settings settings() {
        return calls.send(Request.of(Operation.SETTINGS), Settings.class).value();
    }

    public Settings putSettings(Settings settings) {
        return calls.send(Request.of(Operation.SETTINGS_PUT).body(settings), Settings.class).value();
    }
}

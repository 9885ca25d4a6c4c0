package dev.stockhold.inventory;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;

/** Stock items of one tenant; every lookup names the tenant. */
@ApplicationScoped
public class StockItemRepository implements PanacheRepositoryBase<StockItem, StockItem.Key> {

    public Optional<StockItem> find(String tenantId, String sku) {
        return findByIdOptional(new StockItem.Key(tenantId, sku));
    }
}

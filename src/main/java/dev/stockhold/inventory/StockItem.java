package dev.stockhold.inventory;

import java.io.Serializable;
import java.util.Objects;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

/** Free-to-reserve stock of one sku of one tenant. */
@Entity
@Table(name = "stock_items")
@IdClass(StockItem.Key.class)
public class StockItem {

    @Id
    @Column(name = "tenant_id")
    public String tenantId;

    @Id
    public String sku;

    public long available;

    /** Composite primary key (tenant_id, sku). */
    public static class Key implements Serializable {
        public String tenantId;
        public String sku;

        public Key() {
        }

        public Key(String tenantId, String sku) {
            this.tenantId = tenantId;
            this.sku = sku;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(tenantId, k.tenantId) && Objects.equals(sku, k.sku);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenantId, sku);
        }
    }
}

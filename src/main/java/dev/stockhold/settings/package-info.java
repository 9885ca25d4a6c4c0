/** A tenant's settings: the caps on what one reservation line and one reference may hold. */
package dev.stockhold.settings;

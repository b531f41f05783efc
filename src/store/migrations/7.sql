-- Step 6 → 7, frozen: the table and the triggers that count the changes to
-- each company's customers.

CREATE TABLE customer_changes (
    company_id  TEXT NOT NULL,
    environment TEXT NOT NULL,
    value       INTEGER NOT NULL,
    PRIMARY KEY (company_id, environment)
) STRICT, WITHOUT ROWID;
CREATE TRIGGER customers_changed_insert AFTER INSERT ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_update AFTER UPDATE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (new.company_id, new.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = new.company_id AND environment = new.environment;
END;
CREATE TRIGGER customers_changed_delete AFTER DELETE ON customers BEGIN
    INSERT OR IGNORE INTO customer_changes (company_id, environment, value)
    VALUES (old.company_id, old.environment, 0);
    UPDATE customer_changes SET value = value + 1
    WHERE company_id = old.company_id AND environment = old.environment;
END;

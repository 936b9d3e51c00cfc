-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- Wait for each INSERT to finish before the next statement (a SELECT would otherwise read what
-- was there before), and print query results as tables.
SET 'table.dml-sync' = 'true';
SET 'sql-client.execution.result-mode' = 'tableau';

-- An append-only topic of JSON orders, read from the start up to its end at query start.
CREATE TABLE orders (
  order_id STRING,
  customer STRING,
  amount   DECIMAL(10, 2)
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'orders',
  'format' = 'json',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

INSERT INTO orders VALUES
  ('o-1', 'alice', 12.50),
  ('o-2', 'bob', 7.25),
  ('o-3', 'alice', 3.00);

SELECT * FROM orders;

-- A topic as a keyed map: one message per changed row, the key in the header flink.key.
CREATE TABLE customers (
  id   STRING NOT NULL,
  name STRING,
  tier STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'customers',
  'key.format' = 'raw',
  'value.format' = 'json',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

-- The latest row per key (c1 changes from gold to platinum).
INSERT INTO customers
SELECT id, LAST_VALUE(name), LAST_VALUE(tier)
FROM (VALUES
  ('c1', 'alice', 'gold'),
  ('c2', 'bob', 'silver'),
  ('c1', 'alice', 'platinum')) AS t (id, name, tier)
GROUP BY id;

-- Delete c2. Iggy has no tombstones: a deletion is a message with the key in the header
-- flink.key and the header flink.op = 'd'. Any producer can send one, here an 'iggy' table.
CREATE TABLE customer_deletions (
  payload STRING,
  headers MAP<STRING, BYTES> METADATA
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'customers',
  'format' = 'raw'
);

INSERT INTO customer_deletions
VALUES ('', MAP['flink.key', ENCODE('c2', 'UTF-8'), 'flink.op', ENCODE('d', 'UTF-8')]);

-- The changelog read back: c1 inserted then updated, c2 inserted then deleted.
SELECT * FROM customers;

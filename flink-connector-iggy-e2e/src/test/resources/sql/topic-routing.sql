-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- A table that routes each row to the topic it names (docs/table-sql.md, "Routing rows to
-- topics"): the INSERT writes one CDC stream into one topic per table, and the same table reads
-- the three topics back.
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'table.dml-sync' = 'true';

CREATE TABLE shop_changes (
  id STRING,
  change STRING,
  `topic` STRING METADATA
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'orders;payments;refunds',
  'key.format' = 'raw',
  'key.fields' = 'id',
  'value.format' = 'json',
  'sink.partitioner' = 'key',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

INSERT INTO shop_changes VALUES
  ('o1', 'created', 'orders'),
  ('p1', 'captured', 'payments'),
  ('o2', 'created', 'orders'),
  ('r1', 'issued', 'refunds'),
  ('o1', 'shipped', 'orders');

SELECT `topic`, id, change FROM shop_changes;

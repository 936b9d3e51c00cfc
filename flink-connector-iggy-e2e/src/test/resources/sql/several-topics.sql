-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- The tables of docs/table-sql.md, "Several topics in one table", as they are there: a topic in
-- every stream matching a pattern, and a list of topics of one stream; every row says where it
-- came from. The list is read to its end (the hint bounds it); the pattern table, which finds
-- streams created later, is copied into a topic the test reads by an INSERT that runs on.
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE TABLE all_events (
  payload STRING,
  `stream` STRING METADATA VIRTUAL,
  `topic` STRING METADATA VIRTUAL
) WITH (
  'connector' = 'iggy',
  'address' = '127.0.0.1:8090',
  'stream-pattern' = 'tenant-.*',
  'topic' = 'events',
  'scan.partition-discovery.interval' = '1 min',
  'format' = 'raw'
);

CREATE TABLE shop_money (
  payload STRING,
  `topic` STRING METADATA VIRTUAL
) WITH (
  'connector' = 'iggy',
  'address' = '127.0.0.1:8090',
  'stream' = 'shop',
  'topic' = 'orders;payments;refunds',
  'format' = 'raw'
);

SELECT `topic`, payload FROM shop_money
/*+ OPTIONS('scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset') */;

CREATE TABLE seen_events (
  source_stream STRING,
  source_topic STRING,
  payload STRING
) WITH (
  'connector' = 'iggy',
  'address' = '127.0.0.1:8090',
  'stream' = 'shop',
  'topic' = 'seen-events',
  'format' = 'json'
);

INSERT INTO seen_events
SELECT `stream`, `topic`, payload FROM all_events
/*+ OPTIONS('scan.startup.mode' = 'earliest-offset', 'scan.partition-discovery.interval' = '1 s') */;

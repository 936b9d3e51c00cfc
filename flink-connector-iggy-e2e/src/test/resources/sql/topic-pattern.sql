-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- A table over the topics of a stream whose names match a pattern (docs/table-sql.md, "Several
-- topics in one table"): every row says which topic it came from.
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE TABLE all_orders (
  line STRING,
  `topic` STRING METADATA VIRTUAL
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic-pattern' = 'orders-.*',
  'format' = 'raw',
  'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset'
);

SELECT `topic`, line FROM all_orders;

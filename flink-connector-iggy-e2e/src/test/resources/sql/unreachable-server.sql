-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- A query of a table whose server does not exist: it must fail with the connector's message,
-- and leave the cluster able to run the next query (FLINK-39330 takes a TaskManager down when a
-- task fails while it is still starting).
SET 'sql-client.execution.result-mode' = 'tableau';
SET 'restart-strategy.type' = 'none';

CREATE TABLE unreachable (line STRING) WITH (
  'connector' = 'iggy',
  'address' = '127.0.0.1:1',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'orders',
  'format' = 'raw',
  'scan.bounded.mode' = 'latest-offset'
);

SELECT * FROM unreachable;

-- Licensed to the Apache Software Foundation (ASF) under one or more contributor license
-- agreements. See the NOTICE file distributed with this work for additional information regarding
-- copyright ownership. The ASF licenses this file to you under the Apache License, Version 2.0 (the
-- "License"); you may not use this file except in compliance with the License. You may obtain a
-- copy of the License at http://www.apache.org/licenses/LICENSE-2.0. Unless required by applicable
-- law or agreed to in writing, software distributed under the License is distributed on an "AS IS"
-- BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the License
-- for the specific language governing permissions and limitations under the License.

-- The complete exactly-once job of docs/table-sql.md as it runs in the playground, as it is there:
-- the script itself sets the checkpoint interval and directory (under Flink 2's and Flink 1.20's
-- names). PlaygroundIT runs it with docs/getting-started.md's "Watch a failover"
-- (playground/failover.sh), on its own ports and in its own directory. The INSERT is submitted and
-- runs on after the client exits.
SET 'execution.runtime-mode' = 'streaming';
SET 'execution.checkpointing.interval' = '10 s';
SET 'execution.checkpointing.dir' = 'file:///tmp/iggy-playground/checkpoints';
SET 'state.checkpoints.dir' = 'file:///tmp/iggy-playground/checkpoints';
SET 'execution.checkpointing.externalized-checkpoint-retention' = 'RETAIN_ON_CANCELLATION';

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
  'scan.startup.mode' = 'earliest-offset'
);

CREATE TABLE large_orders (
  order_id STRING,
  customer STRING,
  amount   DECIMAL(10, 2)
) WITH (
  'connector' = 'iggy',
  'address' = 'localhost:8090',
  'username' = 'iggy',
  'password' = 'iggy',
  'stream' = 'shop',
  'topic' = 'large-orders',
  'format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once'
);

INSERT INTO large_orders SELECT * FROM orders WHERE amount >= 100;
